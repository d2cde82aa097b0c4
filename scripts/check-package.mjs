// `npm run check:package`: the package as users install it. publint checks package.json against the files it ships;
// @arethetypeswrong/cli checks that every entry point's types resolve as its JavaScript does. The package is ESM only
// (Node >= 20.18), so attw's esm-only profile leaves out CommonJS `require` and node10 resolution, which we do not offer.
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
  run(bin('attw'), [join(dir, tarball), '--profile', 'esm-only', '--format', 'table-flipped']);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
