/**
 * What a bulk import is handed, turned into the routes to import: files, folders (recursively, GPS files told by
 * their content), globs expanded here (a shell on Windows, a cron line or a quoted argument leaves them unexpanded),
 * and an optional manifest naming who ran what. The list is sorted and each file (by real path) is taken once, so two
 * runs over the same inputs hand the job the same routes in the same order: that is what lets a re-run find its
 * journal entries. Nothing here throws for one bad input: it becomes a `problem`, and the rest is imported.
 */
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute, relative, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { z } from 'zod';
import { parseCsv } from '../../core/csv.js';
import { listFolder, notAFile } from '../../core/folder.js';
import { readFileHead, readInputFile, unreadableFile } from '../../core/files.js';
import { zodProblems } from '../../core/issues.js';
import { decodeJsonText } from '../../core/json-input.js';
import { InputError, LiveloxError } from '../../errors.js';
import { sniffGpsFormat } from '../../gps/sniff.js';
import { MAX_ROUTE_ID_LENGTH } from '../../resources/routes.js';
import type { RouteToImport } from './job.js';

export interface SkippedInput {
  path: string;
  /** Why it was left out: not a GPS file by its content, or the same file given twice. */
  reason: string;
}

export interface InputProblem {
  /** The path, the glob, or `manifest.csv row 3`. */
  path: string;
  /** An InputError's reason (`unreadable`, `not_a_file`, ...), `no_match` for a glob, `manifest` for a bad row. */
  code: string;
  message: string;
}

export interface RouteInputs {
  routes: RouteToImport[];
  skipped: SkippedInput[];
  problems: InputProblem[];
}

export interface ExpandRouteInputsOptions {
  /** A CSV (with a header) or JSON array of {file, classId, firstName, lastName (or person), deviceModel, id}. */
  manifest?: string;
  /** Where relative paths and globs start. Default the process's working directory. */
  cwd?: string;
  signal?: AbortSignal;
}

/** The extensions of GPS files: such a file that does not sniff as GPS is an error of its own, not a quiet skip. */
const GPS_EXTENSIONS = new Set(['.gpx', '.tcx', '.fit']);
const HEAD_BYTES = 8192;
/** Largest manifest read: a row is about 200 bytes, so this is far above the 100,000 routes of the largest import. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

interface Candidate {
  path: string;
  real: string;
  /** Named on the command line or in the manifest: imported (and failing) whatever its content. */
  named: boolean;
  fields?: Omit<RouteToImport, 'file'>;
  /** Manifest row order, for a stable sort of one file given to two runners. */
  row?: number;
}

/**
 * The routes behind `args` and the manifest, sorted by path (a manifest's rows for one file in row order). A file in
 * a folder or matched by a glob is imported when its first bytes say GPX, TCX or FIT, or its name ends so; others are
 * `skipped`. A file named directly is always imported (a file that is not GPS then fails on its own in the job).
 */
export async function expandRouteInputs(
  args: readonly string[],
  options: ExpandRouteInputsOptions = {},
): Promise<RouteInputs> {
  const cwd = options.cwd ?? process.cwd();
  const signal = options.signal;
  const skipped: SkippedInput[] = [];
  const problems: InputProblem[] = [];
  const fail = (path: string, err: unknown): void => {
    if (!(err instanceof LiveloxError)) throw err;
    problems.push({ path, code: err instanceof InputError ? err.reason : err.code, message: err.message });
  };
  const candidates: Candidate[] = [];

  if (options.manifest !== undefined) {
    const rows = await readManifest(resolve(cwd, options.manifest), cwd, problems);
    for (const row of rows) {
      const found = await fileAt(resolve(cwd, row.file), fail);
      if (found) candidates.push({ ...found, path: row.file, named: true, fields: row.fields, row: row.row });
    }
  }
  for (const arg of args) {
    signal?.throwIfAborted();
    const path = resolve(cwd, arg);
    if (isDynamicPattern(arg) && !(await exists(path))) {
      const matches = await glob(arg, { cwd, dot: false, followSymbolicLinks: true, expandDirectories: false });
      if (matches.length === 0) {
        problems.push({ path: arg, code: 'no_match', message: `${arg}: no file matches.` });
      }
      for (const match of matches.sort(compare)) {
        const found = await fileAt(resolve(cwd, match), fail);
        if (found) candidates.push({ ...found, path: shown(cwd, arg, match), named: false });
      }
      continue;
    }
    let s: Stats;
    try {
      s = await stat(path);
    } catch (err) {
      fail(arg, unreadableFile(arg, err));
      continue;
    }
    if (s.isDirectory()) {
      const listed = await listFolder(arg === '' ? '.' : isAbsolute(arg) ? arg : resolve(cwd, arg), { signal });
      for (const p of listed.problems) fail(p.path, p.error);
      for (const f of listed.files) candidates.push({ path: joinShown(arg, f.relative), real: f.real, named: false });
    } else if (s.isFile()) {
      const found = await fileAt(path, fail);
      if (found) candidates.push({ ...found, path: arg, named: true });
    } else {
      fail(arg, notAFile(arg, s));
    }
  }

  // A manifest's rows come first, so that their fields win over the same file found again by a folder or a glob;
  // one file in two rows is two routes only when the rows name different runners or ids.
  const firstByReal = new Map<string, Candidate>();
  const rowKeys = new Set<string>();
  const kept: Candidate[] = [];
  for (const c of candidates) {
    const first = firstByReal.get(c.real);
    if (c.fields) {
      const key = `${c.real}\u0000${JSON.stringify(c.fields.person ?? {})}\u0000${c.fields.id ?? ''}`;
      if (!rowKeys.has(key)) {
        rowKeys.add(key);
        if (!first) firstByReal.set(c.real, c);
        kept.push(c);
        continue;
      }
    } else if (!first) {
      firstByReal.set(c.real, c);
      kept.push(c);
      continue;
    }
    skipped.push({ path: c.path, reason: `the same file as ${first?.path ?? c.path}` });
  }
  const routes: Array<{ c: Candidate; route: RouteToImport }> = [];
  for (const c of kept) {
    signal?.throwIfAborted();
    if (!c.named && !GPS_EXTENSIONS.has(extname(c.path).toLowerCase())) {
      let head: Buffer;
      try {
        head = await readFileHead(c.path, HEAD_BYTES);
      } catch (err) {
        fail(c.path, err);
        continue;
      }
      if (sniffGpsFormat(head) === null) {
        skipped.push({ path: c.path, reason: 'not a GPS file (GPX, TCX or FIT) by its content' });
        continue;
      }
    }
    routes.push({ c, route: { file: c.path, ...c.fields } });
  }
  routes.sort((a, b) => compare(a.c.path, b.c.path) || (a.c.row ?? 0) - (b.c.row ?? 0));
  skipped.sort((a, b) => compare(a.path, b.path));
  return { routes: routes.map((r) => r.route), skipped, problems };
}

/** Code-unit order: the same on every machine and locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A folder's file as the user would write it: the folder as given, then the path below it. */
function joinShown(folder: string, relative: string): string {
  return folder.endsWith('/') ? `${folder}${relative}` : `${folder}/${relative}`;
}

/** A glob's match as the user would write it: relative to where they are, absolute for an absolute glob. */
function shown(cwd: string, pattern: string, match: string): string {
  return isAbsolute(pattern) ? resolve(cwd, match) : match;
}

/** A manifest's file as the user would write it: relative to where they are when it is below, else absolute. */
function shownPath(cwd: string, absolute: string): string {
  const rel = relative(cwd, absolute);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}

/** A file's real path, or a problem: a manifest or glob naming a folder, a missing file, a FIFO. */
async function fileAt(
  path: string,
  fail: (path: string, err: unknown) => void,
): Promise<{ path: string; real: string } | undefined> {
  try {
    const s = await stat(path);
    if (!s.isFile()) {
      if (!s.isDirectory()) fail(path, notAFile(path, s));
      return undefined;
    }
    return { path, real: await realpath(path) };
  } catch (err) {
    fail(path, unreadableFile(path, err));
    return undefined;
  }
}

// ---- the manifest ----

const optionalText = z
  .string()
  .trim()
  .max(200, { message: 'is longer than 200 characters' })
  .transform((s) => (s === '' ? undefined : s))
  .optional();

/** One row, CSV cells (text) or JSON values alike: a class id may come as `12` or `"12"`. */
const manifestRowSchema = z
  .object({
    file: z.string({ message: 'is required: the route file' }).trim().min(1, { message: 'is empty' }),
    classId: z
      .union([z.number(), z.string().trim()])
      .transform((v) => (v === '' ? undefined : Number(v)))
      .pipe(z.number().int({ message: 'must be a whole number' }).positive({ message: 'must be positive' }).optional())
      .optional(),
    firstName: optionalText,
    lastName: optionalText,
    person: z.object({ firstName: optionalText, lastName: optionalText }).strict().optional(),
    deviceModel: optionalText,
    id: z
      .union([z.string().trim(), z.number().int().nonnegative().transform(String)])
      .pipe(z.string().max(MAX_ROUTE_ID_LENGTH, { message: `is longer than ${MAX_ROUTE_ID_LENGTH} characters` }))
      .transform((s) => (s === '' ? undefined : s))
      .optional(),
  })
  .strict();

interface ManifestRow {
  file: string;
  /** 1-based: a CSV's line (the header is row 1), a JSON array's index + 1. */
  row: number;
  fields: Omit<RouteToImport, 'file'>;
}

/** The manifest's rows, files resolved against the manifest's folder; each bad row a problem naming row and column. */
async function readManifest(path: string, cwd: string, problems: InputProblem[]): Promise<ManifestRow[]> {
  let text: string;
  try {
    // Text in UTF-8 or UTF-16, told by its first bytes, as JSON files are: spreadsheets save CSV either way.
    text = decodeJsonText(await readInputFile(path, { what: 'the manifest', maxBytes: MAX_MANIFEST_BYTES }), path);
  } catch (err) {
    if (!(err instanceof LiveloxError)) throw err;
    problems.push({ path, code: err instanceof InputError ? err.reason : err.code, message: err.message });
    return [];
  }
  const isJson = /^\s*[[{]/.test(text);
  let raw: Array<{ row: number; label: string; value: unknown }>;
  if (isJson) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      problems.push({ path, code: 'manifest', message: `${path}: not JSON: ${(err as Error).message}` });
      return [];
    }
    if (!Array.isArray(json)) {
      problems.push({ path, code: 'manifest', message: `${path}: a JSON manifest is an array of rows.` });
      return [];
    }
    raw = (json as unknown[]).map((value, i) => ({ row: i + 1, label: `[${i}]`, value }));
  } else {
    const { header, rows, error } = parseCsv(text);
    if (error !== undefined) {
      problems.push({ path, code: 'manifest', message: `${path}: ${error}` });
      return [];
    }
    raw = rows.map(({ line, cells }) => ({
      row: line,
      label: `row ${line}`,
      value: Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])),
    }));
  }
  const base = dirname(path);
  const out: ManifestRow[] = [];
  for (const { row, label, value } of raw) {
    const parsed = manifestRowSchema.safeParse(value, { reportInput: true });
    if (!parsed.success) {
      // zodProblems' words: a value of the wrong type said as such ("expected a string, got a number").
      const words = zodProblems(parsed.error);
      for (const [i, issue] of parsed.error.issues.entries()) {
        const columns =
          issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.map(String).join('.') || '(row)';
        const what =
          issue.code === 'unrecognized_keys' ? 'is not a manifest column' : (words[i]?.message ?? issue.message);
        problems.push({
          path: `${path} ${label}`,
          code: 'manifest',
          message: `${path} ${label}, column ${columns}: ${what}.`,
        });
      }
      continue;
    }
    const r = parsed.data;
    const firstName = r.person?.firstName ?? r.firstName;
    const lastName = r.person?.lastName ?? r.lastName;
    const person = {
      ...(firstName === undefined ? {} : { firstName }),
      ...(lastName === undefined ? {} : { lastName }),
    };
    out.push({
      file: shownPath(cwd, resolve(base, r.file)),
      row,
      fields: {
        ...(r.classId === undefined ? {} : { classId: r.classId }),
        ...(firstName === undefined && lastName === undefined ? {} : { person }),
        ...(r.deviceModel === undefined ? {} : { deviceModel: r.deviceModel }),
        ...(r.id === undefined ? {} : { id: r.id }),
      },
    });
  }
  return out;
}
