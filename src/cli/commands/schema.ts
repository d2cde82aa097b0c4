/**
 * `livelox-bridge schema fetch|status`: the IOF's grammar files on this machine. `fetch` downloads IOF.xsd (and the
 * IOF 2.0.3 DTD) from the IOF's repository at a pinned commit, or takes them from `--from`, checks them and writes them
 * into the user's cache; `status` says which copy validation would use, and what each step of the lookup found.
 */
import { createHash } from 'node:crypto';
import { readInputFile } from '../../core/files.js';
import {
  findIofSchema,
  GRAMMAR_FILE_NAMES,
  iofSchemaCacheDir,
  type IofGrammarKind,
  type IofSchemaLookup,
  type IofSchemaLookupStep,
} from '../../iof/schema-path.js';
import { TimeoutError } from '../../errors.js';
import { MAX_GRAMMAR_BYTES } from '../../iof/validate/grammar.js';
import { fetchIofSchema, IOF_SCHEMA_SOURCES, type FetchedIofSchema } from '../../jobs/fetch-schema.js';
import {
  EXIT,
  UsageError,
  intOption,
  stringOption,
  type Command,
  type CommandContext,
  type OptionValues,
} from '../command.js';
import { clean, paint, terminal, type Terminal } from '../format.js';
import { errorJson, errorText } from '../hints.js';
import { printJson } from '../json-output.js';
import { proxyFromEnvironment } from '../proxy-env.js';
import { SCHEMA_OPTIONS } from '../schema-options.js';

const WHAT: Readonly<Record<IofGrammarKind, string>> = {
  xsd: 'the IOF XML 3.0 schema',
  dtd: 'the IOF 2.0.3 DTD',
};
const FETCH_ONLY = ['from', 'sha256', 'timeout-s'];
const STATUS_ONLY = ['schema', 'dtd'];

export const schemaCommand: Command = {
  name: 'schema',
  usage: 'schema fetch [xsd|dtd] [--from URL|FILE] [--sha256 HEX] [--timeout-s N] | schema status',
  allowPositionals: true,
  options: {
    from: {
      type: 'string',
      valueName: 'URL|FILE',
      description: "fetch: take the file from this address (a mirror) or local copy instead of the IOF's repository",
    },
    sha256: {
      type: 'string',
      valueName: 'HEX',
      description: 'fetch: the digest the file must have; another one is an error and nothing is written',
    },
    'timeout-s': {
      type: 'string',
      valueName: 'N',
      description:
        'fetch: seconds to wait for a connection, an answer, or more of the file before giving up (default 30)',
    },
    ...SCHEMA_OPTIONS,
  },
  details: [
    'The IOF publishes IOF.xsd and the IOF 2.0.3 DTD; livelox-bridge ships neither. Validation finds each with',
    '--schema/--dtd, else IOF_XSD/IOF_DTD (read when the command runs), else schemas/ in the package (a checkout),',
    'else the cache ($XDG_CACHE_HOME/livelox-bridge, ~/.cache/livelox-bridge on Linux, ~/Library/Caches on macOS,',
    '%LOCALAPPDATA% on Windows).',
    '',
    `fetch downloads IOF.xsd from ${IOF_SCHEMA_SOURCES.xsd.repository} at commit`,
    `${IOF_SCHEMA_SOURCES.xsd.commit.slice(0, 7)} and the DTD from ${IOF_SCHEMA_SOURCES.dtd.repository}`,
    '(`fetch xsd` or `fetch dtd` for one), checks that each is that file (whole, with the pinned sha256, compiling with',
    'libxml2) and writes it atomically into the cache; a failed fetch leaves the cache as it was. --from and --sha256',
    'name one file: IOF.xsd, or the DTD with `fetch dtd`. The download honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY.',
    'status says which copy of each validation uses, and what every step of the lookup found.',
    'With --json: fetch {"ok","files":[{kind,path,from,redirects,sha256,bytes,verified,status,replaced}]} (and "error");',
    'status {"ok","cacheDir","schema":{kind,file,path?,source?,sha256?,published?,steps:[{source,status,path?,variable?,detail?}]},"dtd":{...}}.',
    'Exit 0 when done; 1 when a fetch fails, or (status) when IOF.xsd is found nowhere.',
    'Examples: livelox-bridge schema fetch',
    '          livelox-bridge schema fetch --from https://mirror.example.org/IOF.xsd --sha256 9d00ab...',
    '          livelox-bridge schema status',
  ].join('\n'),
  async run(values, positionals, ctx) {
    const [action, ...rest] = positionals;
    if (action === 'fetch') return fetch(values, rest, ctx);
    if (action === 'status') {
      if (rest.length > 0) throw new UsageError(`schema status takes no more words, got '${rest.join(' ')}'`);
      return status(values, ctx);
    }
    throw new UsageError(
      action === undefined
        ? 'say what to do: schema fetch, or schema status'
        : `unknown action '${action}': fetch or status`,
    );
  },
};

/** The options the other action takes, refused here rather than quietly ignored. */
function refuse(values: OptionValues, names: readonly string[], action: string): void {
  const given = names.filter((n) => values[n] !== undefined);
  if (given.length > 0) throw new UsageError(`${given.map((n) => `--${n}`).join(', ')}: not for schema ${action}`);
}

/* -------------------------------------------------------------------------------------------------------- fetch */

async function fetch(values: OptionValues, words: readonly string[], ctx: CommandContext): Promise<number> {
  refuse(values, STATUS_ONLY, 'fetch');
  if (words.length > 1 || (words[0] !== undefined && words[0] !== 'xsd' && words[0] !== 'dtd')) {
    throw new UsageError(`schema fetch takes xsd or dtd (or nothing, for both), got '${words.join(' ')}'`);
  }
  const from = stringOption(values, 'from');
  const sha256 = stringOption(values, 'sha256');
  if (sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(sha256.trim())) {
    throw new UsageError('--sha256 takes a sha256 digest: 64 hexadecimal digits');
  }
  if (from !== undefined && from.trim() === '') throw new UsageError('--from takes an address or a file');
  const timeoutS = intOption(values, 'timeout-s', 1, 3600);
  // A company proxy carries the download as it carries the service's requests.
  const proxy = proxyFromEnvironment(ctx.env);
  // --from and --sha256 describe one file: IOF.xsd unless the DTD is named.
  const kinds: IofGrammarKind[] =
    words[0] === 'dtd'
      ? ['dtd']
      : words[0] === 'xsd' || from !== undefined || sha256 !== undefined
        ? ['xsd']
        : ['xsd', 'dtd'];

  const done: FetchedIofSchema[] = [];
  const term = terminal(ctx.env);
  for (const kind of kinds) {
    try {
      const fetched = await fetchIofSchema({
        kind,
        env: ctx.env,
        signal: ctx.signal,
        ...(from === undefined ? {} : { from }),
        ...(sha256 === undefined ? {} : { sha256 }),
        ...(proxy === undefined ? {} : { proxy }),
        ...(timeoutS === undefined
          ? {}
          : { connectTimeoutMs: timeoutS * 1000, headersTimeoutMs: timeoutS * 1000, bodyTimeoutMs: timeoutS * 1000 }),
      });
      done.push(fetched);
      if (!ctx.json) ctx.io.out(fetchedLines(fetched, term));
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      if (ctx.json) {
        printJson(ctx, false, { files: done, error: { ...errorJson(err), message: failureText(err) } });
      } else {
        ctx.io.err(`livelox-bridge schema: ${GRAMMAR_FILE_NAMES[kind]} was not fetched: ${failureText(err)}`);
        if (done.length > 0) ctx.io.err(`(${done.map((d) => GRAMMAR_FILE_NAMES[d.kind]).join(', ')} was fetched.)`);
      }
      return EXIT.failure;
    }
  }
  if (ctx.json) printJson(ctx, true, { files: done });
  return EXIT.ok;
}

/** What went wrong, with the timeouts named as this command sets them (the library names its options). */
function failureText(err: unknown): string {
  const text = errorText(err);
  return err instanceof TimeoutError
    ? text.replace('(connectTimeoutMs, headersTimeoutMs, bodyTimeoutMs)', '(--timeout-s N)')
    : text;
}

function fetchedLines(f: FetchedIofSchema, term: Terminal): string {
  const name = GRAMMAR_FILE_NAMES[f.kind];
  const did =
    f.status === 'unchanged'
      ? `already in the cache, unchanged: ${f.path}`
      : `${f.replaced ? 'replaced' : 'written to'} ${f.path} (${f.bytes} bytes)`;
  const pinned = IOF_SCHEMA_SOURCES[f.kind];
  const check = !f.verified
    ? 'not compared with a digest: --sha256 pins one'
    : f.sha256 === pinned.sha256
      ? `the IOF's file at commit ${pinned.commit.slice(0, 7)}`
      : 'the digest given';
  return [
    `${paint(name, 'bold', term.color)}: ${clean(did)}`,
    `  from    ${clean([f.from, ...f.redirects].join(' -> '))}`,
    `  sha256  ${f.sha256} (${check})`,
  ].join('\n');
}

/* ------------------------------------------------------------------------------------------------------- status */

interface GrammarStatus {
  kind: IofGrammarKind;
  file: string;
  path?: string;
  source?: IofSchemaLookup['source'];
  sha256?: string;
  /** Whether the copy used is byte for byte the IOF's published file that `schema fetch` gets. */
  published?: boolean;
  steps: IofSchemaLookupStep[];
}

async function status(values: OptionValues, ctx: CommandContext): Promise<number> {
  refuse(values, FETCH_ONLY, 'status');
  const schema = stringOption(values, 'schema');
  const dtd = stringOption(values, 'dtd');
  const grammars = await Promise.all([
    grammarStatus(findIofSchema({ kind: 'xsd', env: ctx.env, ...(schema === undefined ? {} : { path: schema }) })),
    grammarStatus(findIofSchema({ kind: 'dtd', env: ctx.env, ...(dtd === undefined ? {} : { path: dtd }) })),
  ]);
  const [xsd, dtdStatus] = grammars;
  const ok = xsd.path !== undefined;
  const cacheDir = iofSchemaCacheDir({ env: ctx.env });
  if (ctx.json) {
    printJson(ctx, ok, { cacheDir: cacheDir ?? null, schema: xsd, dtd: dtdStatus });
  } else {
    const term = terminal(ctx.env);
    ctx.io.out(
      [
        ...statusLines(xsd, term),
        '',
        ...statusLines(dtdStatus, term),
        '',
        `Cache directory: ${cacheDir === undefined ? 'none (no home directory)' : clean(cacheDir)}`,
      ].join('\n'),
    );
  }
  return ok ? EXIT.ok : EXIT.failure;
}

async function grammarStatus(lookup: IofSchemaLookup): Promise<GrammarStatus> {
  const base = { kind: lookup.kind, file: GRAMMAR_FILE_NAMES[lookup.kind], steps: lookup.steps };
  if (lookup.path === undefined) return base;
  let sha256: string | undefined;
  try {
    sha256 = createHash('sha256')
      .update(await readInputFile(lookup.path, { maxBytes: MAX_GRAMMAR_BYTES }))
      .digest('hex');
  } catch {
    // Found but unreadable: the path is still the one validation would try, and says so when it does.
  }
  return {
    ...base,
    path: lookup.path,
    ...(lookup.source === undefined ? {} : { source: lookup.source }),
    ...(sha256 === undefined ? {} : { sha256, published: sha256 === IOF_SCHEMA_SOURCES[lookup.kind].sha256 }),
  };
}

function statusLines(g: GrammarStatus, term: Terminal): string[] {
  const head = `${paint(g.file, 'bold', term.color)} (${WHAT[g.kind]}): `;
  const fetchCommand = g.kind === 'xsd' ? 'livelox-bridge schema fetch' : 'livelox-bridge schema fetch dtd';
  const found =
    g.path === undefined
      ? g.kind === 'xsd'
        ? 'not found: validate and check-courses cannot run'
        : 'not found: IOF 2.0.3 files are reported as not checked'
      : clean(g.path);
  const lines = [`${head}${found}`];
  // The step that decided for the ones after it: the one that gave the file, or a path named that was not there.
  const decided = g.steps.findIndex((s) => s.status === 'used' || (s.status === 'missing' && isExplicit(s)));
  const decision =
    decided < 0
      ? ''
      : g.steps[decided]?.status === 'used'
        ? `step ${decided + 1} gave the file`
        : `step ${decided + 1} names a file that is not there, and no other copy replaces it`;
  g.steps.forEach((step, i) =>
    lines.push(`  ${i + 1}. ${stepLabel(step, g.kind).padEnd(10)}${clean(stepText(step, decision))}`),
  );
  if (g.sha256 !== undefined) {
    lines.push(
      `  sha256 ${g.sha256}${g.published ? " (the IOF's published file)" : ' (not the file `schema fetch` gets)'}`,
    );
  }
  if (g.path === undefined) {
    const [flag, variable] = g.kind === 'xsd' ? ['--schema FILE', 'IOF_XSD'] : ['--dtd FILE', 'IOF_DTD'];
    lines.push(`  To get it: run \`${fetchCommand}\`, set ${variable} to a copy, or give one with ${flag}.`);
  }
  return lines;
}

function stepLabel(step: IofSchemaLookupStep, kind: IofGrammarKind): string {
  switch (step.source) {
    case 'option':
      return kind === 'xsd' ? '--schema' : '--dtd';
    case 'environment':
      return step.variable ?? (kind === 'xsd' ? 'IOF_XSD' : 'IOF_DTD');
    case 'package':
      return 'package';
    case 'cache':
      return 'cache';
  }
}

function isExplicit(step: IofSchemaLookupStep): boolean {
  return step.source === 'option' || step.source === 'environment';
}

function stepText(step: IofSchemaLookupStep, decision: string): string {
  const via = step.source === 'cache' && step.variable !== undefined ? ` (${step.variable})` : '';
  const at = step.path === undefined ? '' : `${step.path}${via}: `;
  switch (step.status) {
    case 'used':
      return `${at}found, used`;
    case 'missing':
      return `${at}not there${step.detail === undefined ? '' : ` (${step.detail})`}`;
    case 'skipped':
      return `${at}not looked at: ${decision}`;
    case 'unset':
      return step.source === 'option'
        ? 'not given'
        : step.source === 'environment'
          ? 'not set'
          : step.source === 'package'
            ? 'not looked at'
            : 'no cache directory (no home directory)';
  }
}
