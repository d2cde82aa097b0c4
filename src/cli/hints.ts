/**
 * The library's hints in the CLI's words. The library names no flag or command (errors.ts): a coded hint stands for a
 * step taken through some interface, and only here does that step become `--epsg 3006` or `livelox-bridge login`.
 * Every place the CLI prints a LiveloxError or an Issue goes through `errorText` or `issueText`, so that a user reads
 * the same advice whichever command failed. `--json` output keeps the library's own data: programs get the code.
 */
import { InputError, LiveloxError, formatIssue, type Hint, type HintCode, type Issue } from '../errors.js';

/** What a wording may look at besides the hint: the error it came with, when it came with one. */
type Wording = (hint: Hint, err: LiveloxError | undefined) => string;

const OR_EXPORT = 'or export the course data in WGS 84 from the course-setting program.';

/**
 * The CLI's sentence for each hint code, said where the library says `hint.text`. A Record, so that a code added to
 * errors.ts does not compile until it is worded here.
 */
const WORDS: Readonly<Record<HintCode, Wording>> = {
  advice: (hint) => hint.text,
  credentials: () => 'Check the API key (--api-key or LIVELOX_API_KEY), or run `livelox-bridge login` again.',
  // Said where the library names apiKey()'s argument, at the end of "give an API key ...".
  api_key: () => '(--api-key or LIVELOX_API_KEY)',
  // A token file that cannot be read is replaced whole by the next login: worth saying to someone about to delete it.
  login: (_, err) =>
    err instanceof InputError
      ? 'Run `livelox-bridge login` again (it replaces the file).'
      : 'Run `livelox-bridge login` to log in.',
  token_file: () => 'Check that the directory is writable, or choose another file with --token-file.',
  choose_race: () => 'Choose another with --race N.',
  // Said where the library names the eventId option, at the end of "... give the service event id ...".
  event_id: () => '(--event-id)',
  projection: (hint) => {
    const codes = hint.values ?? [];
    if (codes.length === 0)
      return `Convert them with --epsg and the map's system (or a proj4 definition), ${OR_EXPORT}`;
    const how = codes.length === 1 ? `--epsg ${codes[0]}` : `--epsg and the map's zone (one of ${codes.join(', ')})`;
    return `Convert them to degrees with ${how} if that is the map's system, ${OR_EXPORT}`;
  },
  organiser_projection: (hint) => {
    const codes = hint.values ?? [];
    if (codes.length === 0) {
      return 'Give the grid with --organiser-epsg N (an EPSG code or a proj4 definition), or export the course data in WGS 84.';
    }
    const how =
      codes.length === 1
        ? `--organiser-epsg ${codes[0]}`
        : `--organiser-epsg and the map's zone (one of ${codes.join(', ')})`;
    return `If that is the map's grid, run again with ${how}. Or export the course data in WGS 84.`;
  },
  // The library names its own option (ratePerSecond) and the CLI has no flag for it: the library's text stands.
  request_rate: (hint) => hint.text,
  schema: (_, err) =>
    err instanceof InputError && err.reason === 'schema_invalid'
      ? 'Reinstall IOF.xsd (npm install, or IOF_XSD pointing at the IOF 3.0 schema).'
      : 'Run `npm install` in livelox-bridge (it places schemas/IOF.xsd), or set IOF_XSD to a copy of IOF.xsd.',
};

/** A hint as the CLI says it; `err` is the error it came with, if any. */
export function hintText(hint: Hint, err?: LiveloxError): string {
  return WORDS[hint.code](hint, err);
}

/**
 * An issue's message with its hint in the CLI's words. Messages usually end with the hint's text (so that a caller
 * who does not map hints still reads the advice): that end is replaced. A message without it gets the words after it.
 */
export function issueText(issue: Issue, err?: LiveloxError): string {
  const hint = issue.hint;
  if (hint === undefined) return issue.message;
  const words = hintText(hint, err);
  if (issue.message.endsWith(hint.text)) return `${issue.message.slice(0, -hint.text.length)}${words}`;
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
  const issues = (err as { issues?: unknown }).issues;
  if (Array.isArray(issues)) {
    for (const issue of issues as Issue[]) {
      if (issue.hint === undefined) continue;
      // A function, so that a `$` in a message is not read as a replacement pattern.
      text = text.replace(formatIssue(issue), () => formatIssue({ ...issue, message: issueText(issue, err) }));
    }
  }
  return err.hint ? `${text} ${hintText(err.hint, err)}` : text;
}
