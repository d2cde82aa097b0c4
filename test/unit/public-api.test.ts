/**
 * docs/api.md lists every public name of the three entry points, one line each, and nothing else: this test reads the
 * exports with the TypeScript compiler (types included) and compares them with the document, so neither can drift.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The entry points of package.json `exports`, by the specifier a library user writes. */
const ENTRIES: Readonly<Record<string, string>> = {
  'livelox-bridge': 'src/index.ts',
  'livelox-bridge/iof': 'src/iof/index.ts',
  'livelox-bridge/simulator': 'src/simulator/index.ts',
};

function exportedNames(): Map<string, string[]> {
  const files = Object.values(ENTRIES).map((f) => `${ROOT}${f}`);
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(`${ROOT}${file}`);
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`cannot read the exports of ${file}`);
    out.set(
      entry,
      checker
        .getExportsOfModule(symbol)
        .map((s) => s.name)
        .sort(),
    );
  }
  return out;
}

/** `## \`livelox-bridge/iof\`` opens an entry point's section; `- \`name\` ...` documents one name. */
function documentedNames(): Map<string, string[]> {
  const text = readFileSync(`${ROOT}docs/api.md`, 'utf8');
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const heading = /^## `([^`]+)`/.exec(line);
    if (heading) {
      current = [];
      out.set(heading[1]!, current);
      continue;
    }
    const item = /^- `([A-Za-z_$][\w$]*)`/.exec(line);
    if (item && current) current.push(item[1]!);
  }
  for (const [entry, names] of out) out.set(entry, names.sort());
  return out;
}

describe('the public surface', () => {
  it('is documented in docs/api.md name for name, one line each, for every entry point', () => {
    const exported = exportedNames();
    const documented = documentedNames();
    expect([...documented.keys()].sort()).toEqual(Object.keys(ENTRIES).sort());
    for (const entry of Object.keys(ENTRIES)) {
      const has = new Set(exported.get(entry));
      const says = new Set(documented.get(entry));
      const undocumented = [...has].filter((n) => !says.has(n));
      const notExported = [...says].filter((n) => !has.has(n));
      expect({ entry, undocumented, notExported }).toEqual({ entry, undocumented: [], notExported: [] });
      expect(documented.get(entry)).toEqual([...says].sort());
    }
  });

  it('matches package.json exports', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { exports: Record<string, unknown> };
    const subpaths = Object.keys(pkg.exports)
      .filter((k) => k !== './package.json')
      .map((k) => (k === '.' ? 'livelox-bridge' : `livelox-bridge/${k.slice(2)}`));
    expect(subpaths.sort()).toEqual(Object.keys(ENTRIES).sort());
  });
});
