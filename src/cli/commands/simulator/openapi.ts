/** `livelox-bridge simulator openapi [--out FILE]`: the OpenAPI document of the simulated contract, to stdout or a file. */
import { DEFAULT_SIMULATOR_PORT } from '../../../config.js';
import { openApiDocument } from '../../../simulator/openapi.js';
import { stringOption } from '../../command.js';
import { printJson } from '../../json-output.js';
import { checkOutputPath, writeFileAtomic } from '../../output-files.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { simulatorOpenApiOptions } from './spec.js';

export async function run(
  values: Values<typeof simulatorOpenApiOptions>,
  _words: string[],
  ctx: CommandContext,
): Promise<number> {
  const out = stringOption(values, 'out');
  if (out !== undefined) checkOutputPath(out, '--out');
  // The addresses `livelox-bridge simulator` listens at without options.
  const origin = `http://127.0.0.1:${DEFAULT_SIMULATOR_PORT}`;
  const doc = openApiDocument({ baseUrl: `${origin}/api`, authUrl: `${origin}/auth` });
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const operations = countOperations(doc);
  if (out === undefined) {
    if (ctx.json) printJson(ctx, true, { operations, document: doc });
    else ctx.io.out(text.trimEnd());
    return EXIT.ok;
  }
  const bytes = Buffer.from(text, 'utf8');
  await writeFileAtomic(out, bytes);
  if (ctx.json) printJson(ctx, true, { file: out, bytes: bytes.length, operations });
  else ctx.io.out(`Wrote the OpenAPI 3.1 document (${operations} operations) to ${out}.`);
  return EXIT.ok;
}

function countOperations(doc: Record<string, unknown>): number {
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
  return Object.values(paths).reduce((n, item) => n + Object.keys(item).filter((k) => methods.has(k)).length, 0);
}
