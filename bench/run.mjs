// `npm run bench`: every benchmark of the project, each printing ratios against a reference measured in the same run.
import { benchClient } from './client.mjs';
import { benchGps } from './gps.mjs';
import { benchImport } from './import.mjs';
import { benchIofReader } from './iof-reader.mjs';
import { benchIofValidate } from './iof-validate.mjs';
import { benchLink } from './link.mjs';
import { benchPublish } from './publish.mjs';
import { benchSimulator } from './simulator.mjs';
import { benchStartup } from './startup.mjs';
import { benchSync } from './sync.mjs';

const only = process.argv[2];
const benches = {
  simulator: benchSimulator,
  client: benchClient,
  'iof-validate': benchIofValidate,
  'iof-reader': benchIofReader,
  link: benchLink,
  gps: benchGps,
  sync: benchSync,
  import: benchImport,
  publish: benchPublish,
  startup: benchStartup,
};
for (const [name, fn] of Object.entries(benches)) {
  if (only && only !== name) continue;
  console.log(await fn());
  console.log();
}
