// `npm run check:package`: the package as users install it. publint checks package.json against the files it ships;
// @arethetypeswrong/cli checks that every entry point's types resolve as its JavaScript does. The package is written
// as ES modules; CommonJS callers `require()` the same files (Node >= 20.19 and >= 22.12 load ES modules with require),
// so attw checks CommonJS resolution too (node16 profile: node10 resolution, without `exports`, is not offered) but
// leaves out its cjs-resolves-to-esm rule, which predates require(esm); test/package/installed-package.test.ts runs
// `require('livelox-bridge')` in an installed copy instead.
// Run after `npm run build`: it packs dist/ as it is (no prepare script), into a temporary directory.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = (name) => join(import.meta.dirname, '..', 'node_modules', '.bin', name);
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });

run(bin('publint'), ['--strict']);
const dir = mkdtempSync(join(tmpdir(), 'livelox-bridge-pack-'));
try {
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { stdio: 'ignore' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${dir}`);
  run(bin('attw'), [
    join(dir, tarball),
    ...['--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'table-flipped'],
  ]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
