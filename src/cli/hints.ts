/**
 * The library's hints in the CLI's words. The library names no flag or command (errors.ts): a coded hint stands for a
 * step taken through some interface, and only here does that step become `--epsg 3006` or `livelox-bridge login`.
 * Every place the CLI prints a LiveloxError or an Issue goes through `errorText` or `issueText`, so that a user reads
 * the same advice whichever command failed. `--json` output says the same words in `message` (`errorJson`,
 * `issueJson`): scripts that show the message keep showing what the CLI always said, and the coded hint rides along
 * as data for those that word it themselves.
 */
import {
  InputError,
  LiveloxError,
  LoginRequiredError,
  formatIssue,
  type Hint,
  type HintCode,
  type Issue,
} from '../errors.js';

/**
 * What a wording may look at besides the hint: the error it came with, when it came with one, and what the library
 * said before the hint (an error's summary, or an issue's message without the hint's text).
 */
type Wording = (hint: Hint, context: { err: LiveloxError | undefined; said: string }) => string;

const OR_EXPORT = 'or export the course data in WGS 84 from the course-setting program.';

/**
 * The CLI's sentence for each hint code, said where the library says `hint.text` (in lower case where the library's
 * text continues a sentence: see `hintText`). A Record, so that a code added to errors.ts does not compile until it
 * is worded here.
 */
const WORDS: Readonly<Record<HintCode, Wording>> = {
  advice: (hint) => hint.text,
  credentials: () => 'Check the API key (--api-key or LIVELOX_API_KEY), or run `livelox-bridge login` again.',
  // Said where the library names apiKey()'s argument, at the end of "give an API key ...".
  api_key: () => '(--api-key or LIVELOX_API_KEY)',
  // A token file that cannot be read is replaced whole by the next login: worth saying to someone about to delete it.
  login: (_, { err }) =>
    err instanceof InputError
      ? 'Run `livelox-bridge login` again (it replaces the file).'
      : err instanceof LoginRequiredError && err.reason === 'session_ended'
        ? 'Run `livelox-bridge login` again.'
        : 'Run `livelox-bridge login` to log in.',
  token_file: () => 'Check that the directory is writable, or choose another file with --token-file.',
  // Said in brackets at the end of "race N was compared (...)".
  choose_race: () => '(choose another with --race N).',
  // Said where the library names the eventId option, at the end of "... pass the service event id ...".
  event_id: () => '(--event-id)',
  projection: (hint) => {
    const codes = hint.values ?? [];
    if (codes.length === 0) {
      // After "They fit no grid this tool knows:" (the library's text goes on in lower case) the CLI has always named
      // proj4 definitions too; after the UTM zones the numbers could be, it has not.
      return continues(hint)
        ? `Convert them with --epsg and the map's system (or a proj4 definition), ${OR_EXPORT}`
        : `Convert them with --epsg and the map's system, ${OR_EXPORT}`;
    }
    const how = codes.length === 1 ? `--epsg ${codes[0]}` : `--epsg and the map's zone (one of ${codes.join(', ')})`;
    return `Convert them to degrees with ${how} if that is the map's system, ${OR_EXPORT}`;
  },
  organiser_projection: (hint) => {
    const codes = hint.values ?? [];
    if (codes.length === 0) {
      return 'Give the grid with --organiser-epsg N (an EPSG code or a proj4 definition). Or export the course data in WGS 84.';
    }
    const how = codes.length === 1 ? `--organiser-epsg ${codes[0]}` : "--organiser-epsg and the map's zone";
    return `If that is the map's grid, run again with ${how}. Or export the course data in WGS 84.`;
  },
  // The library names its own option (ratePerSecond); only `import` has flags for it, so the others say to wait.
  request_rate: () =>
    'Wait a while and run it again (with `import`, a lower --rate or --concurrency sends fewer requests).',
  schema: (hint, { err }) => schemaWords(hint, err),
};

/**
 * The IOF schema (or DTD) is missing or unusable: the three ways out as the CLI offers them. `hint.values`: the grammar
 * (`xsd`, `dtd`), where an explicit path that was not there came from (`option`, `environment`), `allow_uncompared`
 * when the command can go on without the check (check-courses), and `no_option` when it takes no --schema (a demo).
 */
function schemaWords(hint: Hint, err: LiveloxError | undefined): string {
  const values = hint.values ?? [];
  const dtd = values[0] === 'dtd';
  const [flag, variable, fetch] = dtd
    ? ['--dtd FILE', 'IOF_DTD', 'livelox-bridge schema fetch dtd']
    : ['--schema FILE', 'IOF_XSD', 'livelox-bridge schema fetch'];
  const file = dtd ? 'IOFdata-2.0.3.dtd' : 'IOF.xsd';
  // A command without --schema (a demo) offers the other two.
  const ways = values.includes('no_option')
    ? `set ${variable} to a copy of ${file}, or run \`${fetch}\` (it downloads the IOF's file into your cache)`
    : `give a copy of ${file} with ${flag}, set ${variable} to one, or run \`${fetch}\` (it downloads the IOF's file into your cache)`;
  const uncompared = values.includes('allow_uncompared')
    ? ' Or compare without the schema check with --allow-uncompared (the verdict is then NOT COMPARED at best).'
    : '';
  if (err instanceof InputError && err.reason === 'schema_invalid') {
    return `Replace it: run \`${fetch}\` again, or point ${flag.split(' ')[0]} or ${variable} at the IOF's file.${uncompared}`;
  }
  const given = values[1] === 'option' ? flag.split(' ')[0] : values[1] === 'environment' ? variable : undefined;
  const start = given === undefined ? ways : `check the path ${given} gives, or ${ways}`;
  return `${start.charAt(0).toUpperCase()}${start.slice(1)}. \`livelox-bridge schema status\` shows where it looks.${uncompared}`;
}

/** Whether the library's text of a hint goes on with a sentence (it starts in lower case, after a colon or so). */
function continues(hint: Hint): boolean {
  const first = hint.text.charAt(0);
  return first !== first.toUpperCase();
}

function wording(hint: Hint, err: LiveloxError | undefined, said: string): string {
  const words = WORDS[hint.code](hint, { err, said });
  return continues(hint) ? `${words.charAt(0).toLowerCase()}${words.slice(1)}` : words;
}

/** A hint as the CLI says it; `err` is the error it came with, if any. */
export function hintText(hint: Hint, err?: LiveloxError): string {
  return wording(hint, err, err?.summary ?? '');
}

/**
 * An issue's message with its hint in the CLI's words. Messages usually end with the hint's text (so that a caller
 * who does not map hints still reads the advice): that end is replaced. A message without it gets the words after it.
 */
export function issueText(issue: Issue, err?: LiveloxError): string {
  const hint = issue.hint;
  if (hint === undefined) return issue.message;
  if (issue.message.endsWith(hint.text)) {
    const said = issue.message.slice(0, -hint.text.length);
    return `${said}${wording(hint, err, said)}`;
  }
  const words = wording(hint, err, issue.message);
  return `${issue.message}${/[.!?]$/.test(issue.message) ? '' : '.'} ${words}`;
}

/**
 * What went wrong and what to do, in the CLI's words: a LiveloxError's summary with its hint worded here, else the
 * message. An error listing issues (a ValidationError) has them in its summary in the library's words; those with a
 * hint are put in the CLI's.
 */
export function errorText(err: unknown): string {
  if (!(err instanceof LiveloxError)) return err instanceof Error ? err.message : String(err);
  let text = err.summary;
  for (const issue of issuesOf(err)) {
    if (issue.hint === undefined) continue;
    // A function, so that a `$` in a message is not read as a replacement pattern.
    text = text.replace(formatIssue(issue), () => formatIssue({ ...issue, message: issueText(issue, err) }));
  }
  return err.hint ? `${text} ${hintText(err.hint, err)}` : text;
}

/** An issue as `--json` data: the message in the CLI's words, the coded hint kept beside it for programs. */
export function issueJson<T extends Issue>(issue: T, err?: LiveloxError): T {
  return issue.hint === undefined ? issue : { ...issue, message: issueText(issue, err) };
}

/**
 * A LiveloxError as `--json` data: its own (redacted) JSON, with `message`, and the messages of the issues it lists,
 * in the CLI's words (`errorText`, `issueText`). The coded hint stays, for programs that word it themselves. Any other
 * error is `{name: 'Error', code: 'failure', message}`.
 */
export function errorJson(err: unknown): Record<string, unknown> {
  if (!(err instanceof LiveloxError)) return { name: 'Error', code: 'failure', message: errorText(err) };
  const json = err.toJSON();
  return {
    ...json,
    message: errorText(err),
    ...(Array.isArray(json.issues) ? { issues: issuesOf(err).map((issue) => issueJson(issue, err)) } : {}),
  };
}

/** The issues an error lists (ValidationError, ResponseShapeError, BadRequestError), or none. */
function issuesOf(err: LiveloxError): readonly Issue[] {
  const issues = (err as { issues?: unknown }).issues;
  return Array.isArray(issues) ? (issues as Issue[]) : [];
}
