/**
 * `livelox-bridge schema fetch [xsd|dtd]`: downloads IOF.xsd (and the IOF 2.0.3 DTD) from the IOF's repository at a
 * pinned commit, or takes them from `--from`, checks them and writes them into the user's cache.
 */
import { GRAMMAR_FILE_NAMES, type IofGrammarKind } from '../../../iof/schema-path.js';
import { TimeoutError } from '../../../errors.js';
import { fetchIofSchema, IOF_SCHEMA_SOURCES, type FetchedIofSchema } from '../../../jobs/fetch-schema.js';
import { UsageError, intOption, stringOption } from '../../command.js';
import { clean, paint, terminal, type Terminal } from '../../format.js';
import { errorJson, errorText } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { proxyFromEnvironment } from '../../proxy-env.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { schemaFetchOptions } from './spec.js';

export async function run(
  values: Values<typeof schemaFetchOptions>,
  words: string[],
  ctx: CommandContext,
): Promise<number> {
  if (words.length > 1) throw new UsageError(`takes xsd or dtd (or nothing, for both), got '${words.join(' ')}'`);
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
        ctx.io.err(`livelox-bridge schema fetch: ${GRAMMAR_FILE_NAMES[kind]} was not fetched: ${failureText(err)}`);
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
