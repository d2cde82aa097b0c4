/**
 * The import rules of .dependency-cruiser.cjs catch wrong imports: each case writes a small tree with one import that
 * breaks a rule and runs the same check `npm run lint:deps` runs over src/. (The real tree is checked by lint:deps.)
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const run = promisify(execFile);

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Writes `files` (path below the tree -> content) beside the project's rule file and tsconfig, and cruises src/. */
async function violationsOf(files: Record<string, string>): Promise<Violation[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lb-arch-'));
  dirs.push(dir);
  copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext' } }));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const args = [DEPCRUISE, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'src'];
  // depcruise exits with the number of errors: the report on stdout is what counts either way.
  const stdout = await run(process.execPath, args, { cwd: dir }).then(
    (r) => r.stdout,
    (err: { stdout?: string }) => err.stdout ?? '',
  );
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

function ruleNames(violations: Violation[]): string[] {
  return [...new Set(violations.map((v) => v.rule.name))].sort();
}

describe('the import rules', () => {
  it('accept imports that follow the direction of the layers', async () => {
    const violations = await violationsOf({
      'src/errors.ts': 'export class E extends Error {}\n',
      'src/core/files.ts': "import { E } from '../errors.js';\nexport const f = E;\n",
      'src/geo/projection.ts': "import { f } from '../core/files.js';\nexport const p = f;\n",
      'src/iof/model.ts': "import { p } from '../geo/projection.js';\nexport const m = p;\n",
      'src/jobs/link.ts': "import { m } from '../iof/model.js';\nexport const j = m;\n",
      'src/cli/commands/link/run.ts': "import { j } from '../../../jobs/link.js';\nexport const c = j;\n",
    });
    expect(violations).toEqual([]);
  });

  it('refuse geo importing iof', async () => {
    const violations = await violationsOf({
      'src/iof/model.ts': 'export const m = 1;\n',
      'src/geo/projection.ts': "import { m } from '../iof/model.js';\nexport const p = m;\n",
    });
    expect(ruleNames(violations)).toContain('geo-never-imports-iof');
    expect(violations.map((v) => `${v.from} -> ${v.to}`)).toContain('src/geo/projection.ts -> src/iof/model.ts');
  });

  it('refuse a pure folder importing the service layer, the client or HTTP', async () => {
    const violations = await violationsOf({
      'src/client.ts': 'export class C {}\n',
      'src/resources/events.ts': 'export const e = 1;\n',
      'src/xml/tree.ts': "import { e } from '../resources/events.js';\nexport const t = e;\n",
      'src/match/event.ts': "import { C } from '../client.js';\nexport const m = C;\n",
      'src/links/render.ts': "import { request } from 'node:http';\nexport const r = request;\n",
    });
    expect(ruleNames(violations)).toEqual(
      expect.arrayContaining([
        'pure-folders-stay-off-the-network',
        'xml-imports-only-lower-folders',
        'match-imports-only-lower-folders',
      ]),
    );
    const pure = violations.filter((v) => v.rule.name === 'pure-folders-stay-off-the-network').map((v) => v.from);
    expect(pure.sort()).toEqual(['src/links/render.ts', 'src/match/event.ts', 'src/xml/tree.ts']);
  });

  it("refuse a CLI command importing another command's folder", async () => {
    const violations = await violationsOf({
      'src/cli/commands/event/run.ts': 'export const option = 1;\n',
      'src/cli/commands/courses/run.ts': "import { option } from '../event/run.js';\nexport const c = option;\n",
    });
    expect(ruleNames(violations)).toEqual(['cli-commands-never-import-each-other']);
  });

  it("refuse a command's spec loading its run, the client or an npm package at start-up, but not lazily", async () => {
    const violations = await violationsOf({
      'src/client.ts': 'export class C {}\n',
      'src/cli/spec.ts': 'export const EXIT = { ok: 0 };\n',
      'src/cli/commands/link/run.ts':
        "import type { options } from './spec.js';\nexport const run = (o: typeof options) => o;\n",
      // A lazy import of its own run and types from anywhere are fine; the client and zod at start-up are not.
      'src/cli/commands/link/spec.ts': [
        "import { EXIT } from '../../spec.js';",
        "import type { C } from '../../../client.js';",
        'export const options = { exit: EXIT.ok };',
        "export const load = () => import('./run.js');",
        'export type Client = C;',
        '',
      ].join('\n'),
      'src/cli/commands/event/spec.ts': "import { C } from '../../../client.js';\nexport const c = C;\n",
      'src/cli/help.ts': "import { z } from 'zod';\nexport const schema = z;\n",
    });
    expect(ruleNames(violations)).toEqual(['start-up-modules-stay-light']);
    expect(violations.map((v) => `${v.from} -> ${v.to}`).sort()).toEqual([
      'src/cli/commands/event/spec.ts -> src/client.ts',
      // Unresolved in this small tree: the package's name is what it imports.
      expect.stringMatching(/^src\/cli\/help\.ts -> (node_modules\/)?zod/),
    ]);
  });

  it('refuse a cycle between modules and a lower folder importing a higher one', async () => {
    const violations = await violationsOf({
      'src/core/a.ts': "import { b } from '../xml/b.js';\nexport const a = 1;\nexport const use = b;\n",
      'src/xml/b.ts': "import { a } from '../core/a.js';\nexport const b = a;\n",
    });
    expect(ruleNames(violations)).toEqual(['core-imports-only-lower-folders', 'no-circular']);
  });
});
