/**
 * `livelox-bridge schema fetch [xsd|dtd]`: downloads IOF.xsd (and the IOF 2.0.3 DTD) from the IOF's repository at a
 * pinned commit, or takes them from `--from`, checks them and writes them into the user's cache.
 */
import { findIofSchema, GRAMMAR_FILE_NAMES, type IofGrammarKind } from '../../../iof/schema-path.js';
import { TimeoutError } from '../../../errors.js';
import { fetchIofSchema, IOF_SCHEMA_SOURCES, type FetchedIofSchema } from '../../../jobs/fetch-schema.js';
import { UsageError, intOption, stringOption } from '../../command.js';
import { clean, paint, terminal, type Terminal } from '../../format.js';
import { errorJson, errorText } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { proxyFromEnvironment } from '../../proxy-env.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { schemaFetchOptions } from './spec.js';

/** Seconds `schema fetch` waits for one file in all (attempts and retries included) without --timeout-s. */
const DEFAULT_TIMEOUT_S = 60;

export async function run(
  values: Values<typeof schemaFetchOptions>,
  words: string[],
  ctx: CommandContext,
): Promise<number> {
  if (words.length > 1) throw new UsageError(`takes xsd or dtd (or nothing, for both), got '${words.join(' ')}'`);
  const from = fromOption(stringOption(values, 'from'));
  const sha256 = stringOption(values, 'sha256');
  if (sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(sha256.trim())) {
    throw new UsageError('--sha256 takes a sha256 digest: 64 hexadecimal digits');
  }
  const timeoutMs = (intOption(values, 'timeout-s', 1, 3600) ?? DEFAULT_TIMEOUT_S) * 1000;
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
    // --timeout-s is the time one file may take in all, retries included: what a person waiting means by it.
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const fetched = await fetchIofSchema({
        kind,
        env: ctx.env,
        signal: AbortSignal.any([ctx.signal, deadline]),
        connectTimeoutMs: timeoutMs,
        headersTimeoutMs: timeoutMs,
        bodyTimeoutMs: timeoutMs,
        ...(from === undefined ? {} : { from }),
        ...(sha256 === undefined ? {} : { sha256 }),
        ...(proxy === undefined ? {} : { proxy }),
      });
      done.push(fetched);
      if (!ctx.json) ctx.io.out(fetchedLines(fetched, term, usedCopy(fetched, ctx)));
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      const text = deadline.aborted || err instanceof TimeoutError ? timedOutText(timeoutMs) : errorText(err);
      if (ctx.json) {
        printJson(ctx, false, { files: done, error: { ...errorJson(err), message: text } });
      } else {
        ctx.io.err(`livelox-bridge schema fetch: ${GRAMMAR_FILE_NAMES[kind]} was not fetched: ${text}`);
        if (done.length > 0) ctx.io.err(`(${done.map((d) => GRAMMAR_FILE_NAMES[d.kind]).join(', ')} was fetched.)`);
      }
      return EXIT.failure;
    }
  }
  if (ctx.json) printJson(ctx, true, { files: done });
  return EXIT.ok;
}

/**
 * `--from` checked as a usage: an address must be http(s) or file:, and must not carry a user or password (they
 * would not be sent, and would be printed back); anything else is a file's path.
 */
function fromOption(from: string | undefined): string | undefined {
  if (from === undefined) return undefined;
  if (from.trim() === '') throw new UsageError('--from takes an address or a file');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(from)) return from;
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    throw new UsageError('--from: not an address; give an http(s) address or the path of a file');
  }
  if (!['http:', 'https:', 'file:'].includes(url.protocol)) {
    throw new UsageError(`--from takes an http(s) address or a file, not a ${url.protocol} address`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(
      '--from: an address with a user name or password is not used (they would not be sent); take the file from a ' +
        'mirror that needs none, or download it yourself and give its path',
    );
  }
  return from;
}

function timedOutText(timeoutMs: number): string {
  return (
    `it did not arrive within ${timeoutMs / 1000} s. The server or the network is slow, or the server stopped ` +
    'sending: try again later, allow more time with --timeout-s N, or take the file from another source with --from.'
  );
}

/**
 * Why validation will not use the copy just written, when it will not: IOF_XSD (or IOF_DTD), or the package's copy,
 * comes first. Undefined when it will use it.
 */
function usedCopy(f: FetchedIofSchema, ctx: CommandContext): string | undefined {
  const lookup = findIofSchema({ kind: f.kind, env: ctx.env });
  if (lookup.path === f.path) return undefined;
  if (lookup.path !== undefined) return `validation does not use this copy but ${lookup.path}, which comes first`;
  const variable = f.kind === 'xsd' ? 'IOF_XSD' : 'IOF_DTD';
  return `validation does not use this copy: ${variable} names a file that is not there, and comes first`;
}

function fetchedLines(f: FetchedIofSchema, term: Terminal, used: string | undefined): string {
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
    ...(used === undefined ? [] : [`  note    ${clean(used)} (\`livelox-bridge schema status\` says why)`]),
  ].join('\n');
}
