/**
 * What a new user meets first (issue 16): every command's help from its spec alone (no command module loaded), the
 * exit codes each help lists once, the version however it is asked for, `help environment` in step with the code and
 * the docs, messages that do not repeat the command's name, and completion scripts that complete. Every run is the
 * built bin in a child process.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/cli/environment.js';
import { COMMANDS } from '../../src/cli/registry.js';
import type { CommandSpec } from '../../src/cli/spec.js';
import { ENV } from '../../src/config.js';
import { ROOT, cleanEnv, runBin, type CliRun } from '../helpers/cli.js';

let home: string;
let env: Record<string, string>;

/**
 * `node --import <this>`: module hooks that write the URL of every module the program loads (its ES modules, and the
 * npm packages and node: builtins they import) to the file LB_LOAD_LOG names. The hooks run on the loader's own
 * thread, so they append to the file themselves.
 */
const LOAD_LOG_HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (process.env.LB_LOAD_LOG) appendFileSync(process.env.LB_LOAD_LOG, result.url + '\\n');
  return result;
}
`;
let loadLog: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'lb-cli-habits-'));
  env = cleanEnv(home);
  writeFileSync(join(home, 'load-log-hooks.mjs'), LOAD_LOG_HOOKS);
  loadLog = join(home, 'load-log.mjs');
  writeFileSync(
    loadLog,
    "import { register } from 'node:module';\nregister('./load-log-hooks.mjs', import.meta.url);\n",
  );
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const cli = (args: string[]): Promise<CliRun> => runBin(args, env);
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Every command path: `link`, ..., `help`, `help environment`. */
function paths(specs: readonly CommandSpec[] = COMMANDS, parent: string[] = []): string[][] {
  return specs.flatMap((s) => [[...parent, s.name], ...paths(s.subcommands ?? [], [...parent, s.name])]);
}

/** Modules a command's help must not load: a command's run (or any module of its folder but spec.js), the client, the
 * jobs and every layer below the CLI but the constants the specs show, and npm packages. */
const HEAVY = [
  /\/dist\/cli\/commands\/[^/]+\/(?!spec\.js$)[^/]+$/,
  /\/dist\/(client\.js|jobs|store|simulator|auth|ems|iof|gps|xml|geo|match)\b/,
  /\/dist\/resources\/(?!event-search-terms\.js$)/,
  /\/node_modules\//,
];

describe('help from the spec alone', { timeout: 120_000 }, () => {
  it.each(paths().map((p) => [p.join(' ')]))(
    '%s --help loads no command module, no job, no client, no npm package',
    async (path) => {
      const log = join(home, `load-${path.replace(/ /g, '-')}.log`);
      const r = await runBin(
        [...path.split(' '), '--help'],
        { ...env, LB_LOAD_LOG: log },
        { nodeArgs: ['--import', loadLog] },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.startsWith(`Usage: livelox-bridge ${path}`)).toBe(true);
      const loaded = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
      // The log works: it saw the command's spec.
      const folder = path.split(' ')[0]!;
      expect(loaded).toContainEqual(expect.stringMatching(new RegExp(`/dist/cli/commands/${folder}/spec\\.js$`)));
      expect(loaded.filter((url) => HEAVY.some((re) => re.test(url)))).toEqual([]);
    },
  );

  it('each help lists the exit codes once, from its spec; sync its own 3 and 4 with the common ones', async () => {
    const runs = await Promise.all(paths().map((p) => cli([...p, '--help'])));
    for (const r of runs) {
      expect(r.stdout.match(/Exit codes/g), r.args.join(' ')).toHaveLength(1);
      // Exit codes are the spec's exitCodes, not sentences in the details.
      expect(r.stdout, r.args.join(' ')).not.toMatch(/^Exits? (?!codes:$)/m);
    }
    const sync = runs.find((r) => r.args[0] === 'sync')!;
    const footer = sync.stdout.slice(sync.stdout.indexOf('Exit codes:'));
    const codes = [...footer.matchAll(/^ {2}(\d+) +(.+)$/gm)].map((m) => [m[1], m[2]]);
    expect(codes.map(([code]) => code)).toEqual(['0', '1', '2', '3', '4', '130', '143']);
    expect(Object.fromEntries(codes)).toMatchObject({
      '0': 'committed (with --dry-run: would commit); nothing needs a person',
      '3': expect.stringContaining('the service failed, or the disk is full; nothing committed'),
      '4': expect.stringContaining('the state file cannot be used'),
    });
  });

  it('a subcommand has its own usage, options and help; the parent lists it', async () => {
    const [parent, sub, viaHelp] = await Promise.all([
      cli(['help', '--help']),
      cli(['help', 'environment', '--help']),
      cli(['help', 'help', 'environment']),
    ]);
    expect(parent.stdout).toMatch(/\nCommands:\n {2}environment +List every environment variable/);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toMatch(/^Usage: livelox-bridge help environment \[--markdown\]/);
    expect(sub.stdout).toContain('--markdown');
    expect(viaHelp.stdout).toBe(sub.stdout);
  });
});

describe('the version', { timeout: 60_000 }, () => {
  it('-v, -V, --version and version print the package version; version --json as a document', async () => {
    const runs = await Promise.all([['-v'], ['-V'], ['--version'], ['version']].map((args) => cli(args)));
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${VERSION}\n`);
    }
    const json = await cli(['version', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ ok: true, version: VERSION });
  });
});

/** Every environment variable a source file reads: `env.X`, `env['X']`, `env[ENV.x]`, `process.env.X`. */
function variablesRead(source: string): string[] {
  const byKey = ENV as Readonly<Record<string, string>>;
  const names = [
    // `env.NAME`, but not a module name ending in env (`./proxy-env.js`).
    ...[...source.matchAll(/(?<![-\w])env\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!),
    ...[...source.matchAll(/\benv\[\s*['"]([^'"]+)['"]\s*\]/g)].map((m) => m[1]!),
    ...[...source.matchAll(/\bENV\.([A-Za-z]+)/g)].map((m) => byKey[m[1]!] ?? `ENV.${m[1]!}`),
  ];
  return names.filter((n) => n !== 'env');
}

function sourceFiles(dir: string, pattern: RegExp): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => pattern.test(f))
    .map((f) => join(ROOT, dir, f));
}

describe('help environment', { timeout: 60_000 }, () => {
  const documented = ENVIRONMENT.flatMap((v) => [v.name, ...v.aliases]);

  it('describes every variable the CLI and the install script read', () => {
    const files = [...sourceFiles('src/cli', /\.ts$/), ...sourceFiles('scripts', /\.mjs$/)];
    const read = new Set(files.flatMap((f) => variablesRead(readFileSync(f, 'utf8'))));
    expect(read.size).toBeGreaterThan(8);
    expect([...read].filter((name) => !documented.includes(name))).toEqual([]);
  });

  it('lists each variable with its default and what it does; --json and --markdown say the same', async () => {
    const [text, json, markdown] = await Promise.all([
      cli(['help', 'environment']),
      cli(['help', 'environment', '--json']),
      cli(['help', 'environment', '--markdown']),
    ]);
    for (const r of [text, json, markdown]) expect(r.code, r.stderr).toBe(0);
    for (const v of ENVIRONMENT) {
      expect(text.stdout).toContain([v.name, ...v.aliases].join(', '));
      expect(text.stdout.replace(/\s+/g, ' ')).toContain(`default: ${v.default}`);
    }
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy', 'NO_COLOR', 'IOF_XSD']) {
      expect(documented).toContain(name);
    }
    expect(JSON.parse(json.stdout)).toEqual({ ok: true, variables: ENVIRONMENT });
    expect(tableRows(markdown.stdout)).toHaveLength(ENVIRONMENT.length + 1);
  });

  it('docs/environment.md holds the table help environment --markdown prints', async () => {
    const r = await cli(['help', 'environment', '--markdown']);
    // Prettier pads the page's columns; the cells are what must agree.
    expect(tableRows(readFileSync(join(ROOT, 'docs/environment.md'), 'utf8'))).toEqual(tableRows(r.stdout));
  });
});

/** The cells of a Markdown table's rows (header included, the rule left out), each trimmed. */
function tableRows(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

describe('messages name the command once', { timeout: 120_000 }, () => {
  it('no message thrown in src/cli starts with a command name (run.ts puts it before every message)', () => {
    const names = paths().map((p) => p.at(-1)!);
    const offenders: string[] = [];
    for (const file of sourceFiles('src/cli', /\.ts$/)) {
      const source = readFileSync(file, 'utf8');
      for (const name of names) {
        const starts = new RegExp(`(?:Error|UsageError)\\(\\s*[\`'"]${name}[ :]`, 'g');
        for (const m of source.matchAll(starts)) offenders.push(`${file}: ${m[0]}`);
      }
      // A message built from a command's name handed in (`${command} needs ...`).
      for (const m of source.matchAll(/(?:Error|UsageError)\(\s*`\$\{(?:command|name|commandName)\}/g)) {
        offenders.push(`${file}: ${m[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it.each([
    [['link']],
    [['sync']],
    [['events']],
    [['event']],
    [['event', 'x']],
    [['countries', '--culture', 'not a code']],
    [['courses']],
    [['courses', '1', '2']],
    [['check-courses']],
    [['check-courses', 'courses.xml']],
    [['check-courses', 'no-such-file.xml', '--event-id', '1', '--api-key', 'k']],
    [['import']],
    [['inspect']],
    [['inspect', 'no-such-file.xml']],
    [['validate']],
    [['status']],
    [['login', '--port', 'x']],
    [['whoami', '--base-url', 'not-a-url']],
    [['simulator', '--port', 'x']],
    [['demo', '--seed', 'x']],
    [['completion']],
    [['completion', 'tcsh']],
    [['help', 'nosuch']],
    [['version', 'extra']],
  ])('%j: the command is named once, before the message', async (args) => {
    const r = await cli(args);
    expect(r.code, r.stdout).not.toBe(0);
    const first = r.stderr.split('\n')[0]!;
    expect(first.startsWith(`livelox-bridge ${args[0]!}: `), r.stderr).toBe(true);
    const message = first.slice(`livelox-bridge ${args[0]!}: `.length);
    expect(message.startsWith(`${args[0]!} `), r.stderr).toBe(false);
    expect(message.startsWith(`${args[0]!}:`), r.stderr).toBe(false);
  });
});

/** Runs `script` in `shell` with the files in `dir`; its stdout, or the failure said in full. */
function inShell(shell: string, script: string, cwd: string): string {
  const r = spawnSync(shell, ['-c', script], { cwd, encoding: 'utf8', env: { ...env, HOME: home } });
  if (r.status !== 0) throw new Error(`${shell} exited ${String(r.status)}: ${r.stderr}`);
  return r.stdout;
}

const has = (shell: string): boolean => spawnSync(shell, ['--version']).status === 0;

/** Lines typed (the cursor at the end) and what completion must offer: exactly, or at least `contains`. */
const CASES: Array<{ line: string; exactly?: string[]; contains?: string[] }> = [
  { line: 'livelox-bridge li', exactly: ['link'] },
  { line: 'livelox-bridge ', contains: ['link', 'sync', 'check-courses', 'completion', 'help', 'version'] },
  { line: 'livelox-bridge link --fo', exactly: ['--format'] },
  { line: 'livelox-bridge link --format ', exactly: ['table', 'json', 'csv', 'md', 'html'] },
  { line: 'livelox-bridge link --format c', exactly: ['csv'] },
  { line: 'livelox-bridge sync --format ', exactly: ['json', 'csv'] },
  { line: 'livelox-bridge simulator --expired-token-status ', exactly: ['401', '403'] },
  { line: 'livelox-bridge completion ', exactly: ['bash', 'zsh', 'fish'] },
  { line: 'livelox-bridge help env', exactly: ['environment'] },
  { line: 'livelox-bridge help ', contains: ['environment', 'link', 'sync'] },
  { line: 'livelox-bridge help environment --', exactly: ['--markdown', '--json', '--help'] },
  // Files where a value or an argument is a file; the value of an option taking one is skipped on the way.
  { line: 'livelox-bridge link --event-id 12 exp', exactly: ['exports.xml', 'exports dir'] },
  { line: 'livelox-bridge link --out exp', exactly: ['exports.xml', 'exports dir'] },
  { line: 'livelox-bridge sync --out-dir exp', exactly: ['exports dir'] },
  { line: 'livelox-bridge events --from ', exactly: [] },
];

describe('completion', { timeout: 120_000 }, () => {
  let dir: string;
  const scripts: Record<string, string> = {};
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lb-completion-'));
    writeFileSync(join(dir, 'exports.xml'), '<x/>');
    mkdirSync(join(dir, 'exports dir'));
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await cli(['completion', shell]);
      expect(r.code, r.stderr).toBe(0);
      scripts[shell] = join(dir, `completion.${shell}`);
      writeFileSync(scripts[shell], r.stdout);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const expectOffers = (offered: string[][]) =>
    CASES.forEach((c, i) => {
      const got = offered[i]!.map((w) => w.replace(/\/$/, ''));
      if (c.exactly) expect(got.sort(), c.line).toEqual([...c.exactly].sort());
      if (c.contains) expect(got, c.line).toEqual(expect.arrayContaining(c.contains));
    });

  it('each script names the version it was made for, and --json carries it', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      expect(readFileSync(scripts[shell]!, 'utf8')).toContain(`livelox-bridge ${VERSION}`);
    }
    const r = await cli(['completion', 'fish', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      shell: 'fish',
      script: expect.stringContaining('complete'),
    });
  });

  it('bash: the function offers commands, subcommands, options, choices and files', () => {
    const calls = CASES.map(({ line }) => {
      const words = line.split(' ').map((w) => `'${w}'`);
      return `t ${words.join(' ')}`;
    });
    const out = inShell(
      'bash',
      [
        `source '${scripts.bash!}'`,
        // What bash does on Tab: the words, the index of the one under the cursor, then the function.
        't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _livelox_bridge; printf "%s\\t" "${COMPREPLY[@]}"; echo; }',
        ...calls,
      ].join('\n'),
      dir,
    );
    expectOffers(
      out
        .split('\n')
        .slice(0, CASES.length)
        .map((l) => l.split('\t').filter(Boolean)),
    );
  });

  it('bash: every option of every command is offered after --', () => {
    const lines = paths().map((p) => `t livelox-bridge ${p.join(' ')} --`);
    const out = inShell(
      'bash',
      [
        `source '${scripts.bash!}'`,
        't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _livelox_bridge; echo "${COMPREPLY[*]}"; }',
        ...lines,
      ].join('\n'),
      dir,
    );
    const offered = out.split('\n');
    paths().forEach((p, i) => {
      let spec: CommandSpec | undefined;
      for (const word of p) spec = (spec?.subcommands ?? COMMANDS).find((c) => c.name === word);
      const expected = [...Object.keys(spec!.options ?? {}), 'json', 'help'].map((o) => `--${o}`);
      expect(offered[i]!.split(' ').sort(), p.join(' ')).toEqual(expected.sort());
    });
  });

  it.skipIf(!has('zsh'))(
    'zsh (skipped where zsh is not installed): the script parses, and offers what bash does',
    () => {
      inShell('zsh', `zsh -n '${scripts.zsh!}'`, dir);
      // The completion system's builtins, stood in for: each prints what it was asked to offer.
      const stubs = [
        'compdef() { :; }',
        // Offers the words that begin with the word being completed, as compsys does, one after another.
        '_lb_offer() { local w; for w in "$@"; do [[ $w == ${cur}* ]] && print -rn -- "$w"$\'\\t\'; done; }',
        '_describe() { local -a list; list=("${(@P)4}"); _lb_offer "${(@)list%%:*}"; }',
        'compadd() { [[ $1 == -a ]] && { local -a list; list=("${(@P)2}"); _lb_offer "${list[@]}"; }; }',
        '_files() { local -a f; if [[ $1 == -/ ]]; then f=(*(N/)); else f=(*(N)); fi; _lb_offer "${f[@]}"; }',
      ];
      const calls = CASES.map(({ line }) => {
        const words = line.split(' ').map((w) => `'${w}'`);
        return `words=(${words.join(' ')}); CURRENT=${words.length}; _livelox_bridge; print`;
      });
      const out = inShell('zsh', [...stubs, `source '${scripts.zsh!}'`, ...calls].join('\n'), dir);
      expectOffers(
        out
          .split('\n')
          .slice(0, CASES.length)
          .map((l) => l.split('\t').filter(Boolean)),
      );
    },
  );

  it.skipIf(!has('fish'))(
    'fish (skipped where fish is not installed): the script parses, complete -C offers the same',
    () => {
      inShell('fish', `fish -n '${scripts.fish!}'`, dir);
      const calls = CASES.map(({ line }) => `echo (complete -C '${line}' | string split -f1 \\t | string join \\t)`);
      const out = inShell('fish', [`source '${scripts.fish!}'`, ...calls].join('\n'), dir);
      expectOffers(
        out
          .split('\n')
          .slice(0, CASES.length)
          .map((l) => l.split('\t').filter(Boolean)),
      );
    },
  );
});
