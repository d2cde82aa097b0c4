/**
 * An import manifest: who ran what, as a timing company knows it. CSV with a header line (`,` or `;`, as a
 * spreadsheet saves it) or a JSON array of objects. Files are relative to the manifest's folder, wherever the command
 * runs. A bad row is a problem naming its row and column, and its file is held back (imported bare it would get
 * another id, and a later corrected row would then add a second route). A manifest that cannot be used as a whole
 * (unreadable, not JSON, a CSV column it does not know) is refused, and with it the whole import: its routes would
 * otherwise go under the wrong runners.
 */
import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { parseCsv } from '../../core/csv.js';
import { readInputFile } from '../../core/files.js';
import { zodProblems } from '../../core/issues.js';
import { decodeJsonText } from '../../core/json-input.js';
import { InputError, LiveloxError } from '../../errors.js';
import { MAX_ROUTE_ID_LENGTH } from '../../resources/routes.js';
import type { RouteToImport } from './job.js';

/** Largest manifest read: a row is about 200 bytes, so this is far above the 100,000 routes of the largest import. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** A CSV manifest's columns, as written in its header (matched without regard to case). */
const CSV_COLUMNS = ['file', 'classId', 'firstName', 'lastName', 'deviceModel', 'id'] as const;

export interface ManifestProblem {
  /** `runners.csv`, or `runners.csv row 3`. */
  path: string;
  code: string;
  message: string;
}

export interface ManifestRow {
  /** The file, resolved against the manifest's folder. */
  file: string;
  /** 1-based: a CSV's line (the header is row 1), a JSON array's index + 1. */
  row: number;
  fields: Omit<RouteToImport, 'file'>;
}

export type Manifest =
  | {
      ok: true;
      rows: ManifestRow[];
      /** The files of refused rows (resolved), each with the row that names it. */
      heldBack: Array<{ file: string; row: string }>;
      problems: ManifestProblem[];
    }
  | { ok: false; problem: ManifestProblem };

const optionalText = z
  .string()
  .trim()
  .max(200, { message: 'is longer than 200 characters' })
  .transform((s) => (s === '' ? undefined : s))
  .optional();

const CLASS_ID_WORDS = 'must be a whole number of 1 or more';

const classIdNumber = z
  .number()
  .int({ message: CLASS_ID_WORDS })
  .min(1, { message: CLASS_ID_WORDS })
  .max(Number.MAX_SAFE_INTEGER, { message: 'is too large for a class id' });

const idText = z
  .string()
  .trim()
  .max(MAX_ROUTE_ID_LENGTH, { message: `is longer than ${MAX_ROUTE_ID_LENGTH} characters` })
  .transform((s) => (s === '' ? undefined : s));

/** The fields both kinds share; `classId` and `id` are typed in JSON and text in CSV. */
const rowFields = {
  file: z.string({ message: 'is required: the route file' }).trim().min(1, { message: 'is empty' }),
  firstName: optionalText,
  lastName: optionalText,
  deviceModel: optionalText,
};

/** A CSV row: every cell is text; a class id is written in digits only (`1e3`, `12.5` and `+12` are refused). */
const csvRowSchema = z
  .object({
    ...rowFields,
    classId: z
      .string()
      .trim()
      .regex(/^\d*$/, { message: `${CLASS_ID_WORDS}, written in digits` })
      .transform((s) => (s === '' ? undefined : Number(s)))
      .pipe(classIdNumber.optional())
      .optional(),
    id: idText.optional(),
  })
  .strict();

/** A JSON row: a class id is a JSON number written as a whole number (`"12"` is text and refused). */
const jsonRowSchema = z
  .object({
    ...rowFields,
    classId: classIdNumber.optional(),
    person: z.object({ firstName: optionalText, lastName: optionalText }).strict().optional(),
    id: z.union([idText, z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).transform(String)]).optional(),
  })
  .strict();

type ParsedRow = z.output<typeof csvRowSchema> | z.output<typeof jsonRowSchema>;

/** A JSON number written with a fraction or an exponent, kept as written: JSON.parse makes `1e3` the integer 1000. */
class WrittenNumber {
  constructor(readonly text: string) {}
}

/**
 * The manifest at `path` (as messages name it). Never throws for bad content: a manifest that cannot be used is
 * `ok: false` with the reason.
 */
export async function readManifest(path: string): Promise<Manifest> {
  const refuse = (message: string): Manifest => ({
    ok: false,
    problem: { path, code: 'manifest', message: `${path}: ${message}` },
  });
  let text: string;
  try {
    // Text in UTF-8 or UTF-16, told by its first bytes, as JSON files are: spreadsheets save CSV either way.
    text = decodeJsonText(await readInputFile(path, { what: 'the manifest', maxBytes: MAX_MANIFEST_BYTES }), path);
  } catch (err) {
    if (!(err instanceof LiveloxError)) throw err;
    const code = err instanceof InputError ? err.reason : err.code;
    return { ok: false, problem: { path, code, message: err.message } };
  }
  let raw: Array<{ row: number; label: string; value: unknown }>;
  let schema: typeof csvRowSchema | typeof jsonRowSchema;
  if (/^\s*[[{]/.test(text)) {
    let json: unknown;
    try {
      json = parseJsonKeepingFractions(text);
    } catch (err) {
      return refuse(`not JSON: ${(err as Error).message}`);
    }
    if (!Array.isArray(json)) return refuse('a JSON manifest is an array of rows.');
    raw = json.map((value: unknown, i) => ({ row: i + 1, label: `[${i}]`, value }));
    schema = jsonRowSchema;
  } else {
    const { header, rows, error } = parseCsv(text);
    if (error !== undefined) return refuse(error);
    const columns = csvColumns(header);
    if (typeof columns === 'string') return refuse(columns);
    raw = rows.map(({ line, cells }) => ({
      row: line,
      label: `row ${line}`,
      value: Object.fromEntries(columns.flatMap((name, i) => (name === undefined ? [] : [[name, cells[i] ?? '']]))),
    }));
    schema = csvRowSchema;
  }
  // Relative to the manifest's folder, not to where the command runs: the manifest travels with its files.
  const base = dirname(resolve(path));
  const rows: ManifestRow[] = [];
  const heldBack: Array<{ file: string; row: string }> = [];
  const problems: ManifestProblem[] = [];
  for (const { row, label, value } of raw) {
    const where = `${path} ${label}`;
    const checked = checkRow(value, schema);
    if ('problems' in checked) {
      for (const p of checked.problems) {
        problems.push({ path: where, code: 'manifest', message: `${where}, column ${p.column}: ${p.message}.` });
      }
      const file = (value as { file?: unknown } | null)?.file;
      if (typeof file === 'string' && file.trim() !== '')
        heldBack.push({ file: resolve(base, file.trim()), row: where });
      continue;
    }
    rows.push({ file: resolve(base, checked.row.file), row, fields: rowFieldsOf(checked.row) });
  }
  return { ok: true, rows, heldBack, problems };
}

/**
 * Each header cell's column name, undefined for an empty trailing one (spreadsheets add them); or why the header
 * cannot be used: a column the manifest does not have (a misspelt `classid` or `firstname` would import every route
 * without it, under ids a corrected manifest would not give), or one named twice.
 */
function csvColumns(header: readonly string[]): Array<string | undefined> | string {
  const known = new Map<string, string>(CSV_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const unknown: string[] = [];
  const seen = new Set<string>();
  const columns = header.map((h) => {
    if (h === '') return undefined;
    const name = known.get(h.toLowerCase());
    if (name === undefined) unknown.push(h);
    else if (seen.has(name)) unknown.push(`${h} (a second time)`);
    else seen.add(name);
    return name;
  });
  if (unknown.length > 0) {
    const list = unknown.map((c) => `'${c}'`).join(', ');
    const what =
      unknown.length === 1 ? `column ${list} is not a manifest column` : `columns ${list} are not manifest columns`;
    return `${what}; its columns are ${CSV_COLUMNS.join(', ')}. Remove or rename ${unknown.length === 1 ? 'it' : 'them'}.`;
  }
  if (!seen.has('file')) return `the header has no 'file' column (its columns are ${CSV_COLUMNS.join(', ')}).`;
  return columns;
}

/** The row, or what is wrong with it per column: a number written as `1e3` or `12.5`, then what the schema refuses. */
function checkRow(
  value: unknown,
  schema: typeof csvRowSchema | typeof jsonRowSchema,
): { row: ParsedRow } | { problems: Array<{ column: string; message: string }> } {
  const written = writtenNumbers(value, []);
  if (written.length > 0) {
    const message = (text: string) => `a number here is a whole number written in digits, got ${text}`;
    return { problems: written.map((w) => ({ column: w.path.join('.'), message: message(w.text) })) };
  }
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return { row: parsed.data };
  // zodProblems' words: a value of the wrong type said as such ("expected a number, got a string").
  const words = zodProblems(parsed.error);
  return {
    problems: parsed.error.issues.map((issue, i) =>
      issue.code === 'unrecognized_keys'
        ? { column: issue.keys.join(', '), message: 'is not a manifest column' }
        : { column: issue.path.map(String).join('.') || '(row)', message: words[i]?.message ?? issue.message },
    ),
  };
}

function writtenNumbers(value: unknown, path: string[]): Array<{ path: string[]; text: string }> {
  if (value instanceof WrittenNumber) return [{ path, text: value.text }];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => writtenNumbers(v, [...path, k]));
}

function rowFieldsOf(r: ParsedRow): Omit<RouteToImport, 'file'> {
  const person = 'person' in r ? r.person : undefined;
  const firstName = person?.firstName ?? r.firstName;
  const lastName = person?.lastName ?? r.lastName;
  return {
    ...(r.classId === undefined ? {} : { classId: r.classId }),
    ...(firstName === undefined && lastName === undefined
      ? {}
      : {
          person: {
            ...(firstName === undefined ? {} : { firstName }),
            ...(lastName === undefined ? {} : { lastName }),
          },
        }),
    ...(r.deviceModel === undefined ? {} : { deviceModel: r.deviceModel }),
    ...(r.id === undefined ? {} : { id: r.id }),
  };
}

/**
 * JSON.parse, with each number written with a fraction or an exponent kept as a `WrittenNumber`. The text is parsed
 * as it is first (a syntax error then names the right place); then such numbers, found outside strings, are quoted
 * with a mark no string of the file can hold, and parsed again.
 */
function parseJsonKeepingFractions(text: string): unknown {
  JSON.parse(text);
  const mark = `\u0000${randomUUID()}:`;
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (t) =>
    t.startsWith('"') || /^-?\d+$/.test(t) ? t : JSON.stringify(mark + t),
  );
  return JSON.parse(marked, (_key, v: unknown) =>
    typeof v === 'string' && v.startsWith(mark) ? new WrittenNumber(v.slice(mark.length)) : v,
  ) as unknown;
}
