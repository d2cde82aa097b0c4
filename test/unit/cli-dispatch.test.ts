/**
 * The dispatcher on commands declared for the test: subcommands picked by the word after their parent, options
 * checked against their choices before anything loads, help from the spec without loading the run, and the exit codes
 * of a spec shown once.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { defineCommand, defineOptions, type CommandSpec } from '../../src/cli/spec.js';

/** A run that reports what it was given, and a loader that counts its loads. */
function recording(name: string) {
  const loads: string[] = [];
  const load = () => {
    loads.push(name);
    return Promise.resolve({
      run: (values: Record<string, unknown>, args: string[], ctx: { io: { out(t: string): void } }) => {
        ctx.io.out(JSON.stringify({ name, values, args }));
        return Promise.resolve(0);
      },
    });
  };
  return { loads, load };
}

const schemaFetch = recording('fetch');
const schemaStatus = recording('status');
const portal = recording('portal');
const portalStatus = recording('portal status');

const fetchOptions = defineOptions({
  from: { type: 'string', valueName: 'URL', description: 'where from' },
  format: { type: 'string', choices: ['text', 'json'], description: 'how to say it' },
});

const COMMANDS: readonly CommandSpec[] = [
  // A parent without a run of its own: one of its subcommands is needed.
  defineCommand({
    name: 'schema',
    summary: 'Schema things.',
    usage: 'schema fetch|status',
    subcommands: [
      defineCommand({
        name: 'fetch',
        summary: 'Fetch it.',
        usage: 'schema fetch [--from URL]',
        options: fetchOptions,
        load: schemaFetch.load,
      }),
      defineCommand({ name: 'status', summary: 'Say which.', usage: 'schema status', load: schemaStatus.load }),
    ],
  }),
  // A parent that runs and takes arguments of its own (as sync will with `sync status`).
  defineCommand({
    name: 'portal',
    summary: 'Portal.',
    usage: 'portal <folder...>',
    arguments: { name: 'folder', complete: 'directory' },
    exitCodes: { 3: 'the service failed' },
    subcommands: [
      defineCommand({
        name: 'status',
        summary: 'Portal status.',
        usage: 'portal status',
        exitCodes: { 0: 'all linked' },
        load: portalStatus.load,
      }),
    ],
    load: portal.load,
  }),
];

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) },
    env: {},
    signal: new AbortController().signal,
    commands: COMMANDS,
  });
  return { code, out, err };
}

describe('subcommands', () => {
  it('the word after the parent picks the subcommand, which gets its own options', async () => {
    const r = await cli(['schema', 'fetch', '--from', 'http://x', '--format', 'json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ name: 'fetch', values: { from: 'http://x', format: 'json' }, args: [] });
  });

  it('a parent that takes arguments reads a word that names no subcommand as one of them', async () => {
    const [own, sub] = [await cli(['portal', 'exports', 'more']), await cli(['portal', 'status'])];
    expect(JSON.parse(own.out)).toEqual({ name: 'portal', values: {}, args: ['exports', 'more'] });
    expect(JSON.parse(sub.out)).toMatchObject({ name: 'portal status', args: [] });
  });

  it('an unknown subcommand of a parent without arguments is a usage error with a guess', async () => {
    const r = await cli(['schema', 'fecth']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "livelox-bridge schema: unknown subcommand 'fecth'. Did you mean 'fetch'?\nSee livelox-bridge schema --help.\n",
    );
  });

  it('a parent without a run needs a subcommand', async () => {
    const r = await cli(['schema']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('livelox-bridge schema: a subcommand is missing: fetch or status');
  });

  it("an option's value outside its choices is refused before the run loads, with the closest choice", async () => {
    const before = schemaFetch.loads.length;
    const r = await cli(['schema', 'fetch', '--format', 'jsn']);
    expect(r.code).toBe(2);
    expect(r.err).toContain("livelox-bridge schema fetch: --format takes text or json, got 'jsn'. Did you mean json?");
    expect(schemaFetch.loads.length).toBe(before);
  });

  it('an unknown option of a subcommand points at its own help', async () => {
    const r = await cli(['schema', 'fetch', '--form', 'x']);
    expect(r.err).toContain("unknown option '--form'. Did you mean --from?");
    expect(r.err).toContain('See livelox-bridge schema fetch --help.');
  });
});

describe('help from the spec', () => {
  it('--help of a subcommand and of its parent load no run', async () => {
    const loads = [schemaFetch, schemaStatus, portal, portalStatus].map((c) => c.loads.length);
    const [sub, parent] = [await cli(['schema', 'fetch', '--help']), await cli(['portal', '--help'])];
    expect(sub.code).toBe(0);
    expect(sub.out).toMatch(/^Usage: livelox-bridge schema fetch \[--from URL\]\n\nFetch it\.\n\nOptions:\n/);
    expect(sub.out).toContain('--format text|json');
    expect(parent.out).toMatch(/\nCommands:\n {2}status {2}Portal status\.\n/);
    expect([schemaFetch, schemaStatus, portal, portalStatus].map((c) => c.loads.length)).toEqual(loads);
  });

  it("lists a spec's exit codes with the common ones, each once", async () => {
    const [parent, sub] = [await cli(['portal', '--help']), await cli(['portal', 'status', '--help'])];
    const codes = (text: string) => [...text.matchAll(/^ {2}(\d+) {2,}(.*)$/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(codes(parent.out)).toEqual([
      '0 success',
      '1 failure (the work could not be done)',
      '2 usage error (bad command line)',
      '3 the service failed',
      '130 interrupted (Ctrl-C; a second Ctrl-C stops at once)',
      '143 ended by SIGTERM',
    ]);
    expect(codes(sub.out)[0]).toBe('0 all linked');
    expect(parent.out.match(/Exit codes/g)).toHaveLength(1);
  });
});
