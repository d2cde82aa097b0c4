/**
 * What a bulk import is handed, turned into the routes to import: files, folders (recursively, GPS files told by
 * their content), globs expanded here (a shell on Windows, a cron line or a quoted argument leaves them unexpanded),
 * and an optional manifest naming who ran what. The list is sorted and each file (by real path) is taken once, so two
 * runs over the same inputs hand the job the same routes in the same order: that is what lets a re-run find its
 * journal entries. Nothing here throws for one bad input: it becomes a `problem`, and the rest is imported (but for a
 * manifest that cannot be used at all: then nothing is). Paths are shown as a person at the command line reads them:
 * relative to the working directory when inside it, else absolute; the job opens them as shown.
 */
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { listFolder, notAFile } from '../../core/folder.js';
import { readFileHead, unreadableFile } from '../../core/files.js';
import { InputError, LiveloxError } from '../../errors.js';
import { sniffGpsFormat } from '../../gps/sniff.js';
import type { RouteToImport } from './job.js';
import { readManifest } from './manifest.js';
import { codeUnitOrder as compare } from '../../core/order.js';

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
  /** The manifest cannot be used (unreadable, not JSON, an unknown CSV column): no routes, the reason in `problems`. */
  manifestRefused: boolean;
}

export interface ExpandRouteInputsOptions {
  /** A CSV (with a header) or JSON array of {file, classId, firstName, lastName (or person), deviceModel, id}. */
  manifest?: string;
  signal?: AbortSignal;
}

/** The extensions of GPS files: such a file that does not sniff as GPS is an error of its own, not a quiet skip. */
const GPS_EXTENSIONS = new Set(['.gpx', '.tcx', '.fit']);
const HEAD_BYTES = 8192;

interface Candidate {
  /** As shown (and opened): relative to the working directory when inside it. */
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
  const cwd = process.cwd();
  const signal = options.signal;
  const skipped: SkippedInput[] = [];
  const problems: InputProblem[] = [];
  const fail = (path: string, err: unknown): void => {
    if (!(err instanceof LiveloxError)) throw err;
    problems.push({ path, code: err instanceof InputError ? err.reason : err.code, message: err.message });
  };
  const candidates: Candidate[] = [];
  /** Real paths of files whose manifest row was refused, with that row. */
  const heldBack = new Map<string, string>();

  if (options.manifest !== undefined) {
    const manifest = await readManifest(shownPath(cwd, resolve(cwd, options.manifest)));
    if (!manifest.ok) return { routes: [], skipped, problems: [manifest.problem], manifestRefused: true };
    problems.push(...manifest.problems);
    for (const row of manifest.rows) {
      const found = await fileAt(shownPath(cwd, row.file), fail);
      if (found) candidates.push({ ...found, named: true, fields: row.fields, row: row.row });
    }
    for (const h of manifest.heldBack) {
      const real = await realpath(h.file).catch(() => undefined);
      if (real !== undefined) heldBack.set(real, h.row);
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
        const found = await fileAt(shownPath(cwd, resolve(cwd, match)), fail);
        if (found) candidates.push({ ...found, named: false });
      }
      continue;
    }
    const shown = shownPath(cwd, path);
    let s: Stats;
    try {
      s = await stat(path);
    } catch (err) {
      fail(shown, unreadableFile(shown, err));
      continue;
    }
    if (s.isDirectory()) {
      const listed = await listFolder(shown, { signal });
      for (const p of listed.problems) fail(p.path, p.error);
      for (const f of listed.files) candidates.push({ path: f.path, real: f.real, named: false });
    } else if (s.isFile()) {
      const found = await fileAt(shown, fail);
      if (found) candidates.push({ ...found, named: true });
    } else {
      fail(shown, notAFile(shown, s));
    }
  }

  const kept = onePerFile(candidates, heldBack, skipped);
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
  return { routes: routes.map((r) => r.route), skipped, problems, manifestRefused: false };
}

/**
 * Each file once. A manifest's rows come first, so that their fields win over the same file found again by a folder
 * or a glob; one file in two rows is two routes only when the rows name different runners or ids. A file whose
 * manifest row was refused is held back, also when a folder holds it: imported bare, it would get another id than the
 * corrected row will give it, and the service would hold it twice.
 */
function onePerFile(candidates: Candidate[], heldBack: Map<string, string>, skipped: SkippedInput[]): Candidate[] {
  const firstByReal = new Map<string, Candidate>();
  const rowKeys = new Set<string>();
  const kept: Candidate[] = [];
  for (const c of candidates) {
    const refusedRow = heldBack.get(c.real);
    if (refusedRow !== undefined && !c.fields) {
      skipped.push({ path: c.path, reason: `its manifest row is refused (${refusedRow})` });
      continue;
    }
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
  return kept;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A path as a person at the command line reads it: relative to where they are when it is below, else absolute. */
function shownPath(cwd: string, absolute: string): string {
  const rel = relative(cwd, absolute);
  if (rel === '') return '.';
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? absolute : rel;
}

/** A file's real path, or a problem (named as shown): a manifest or glob naming a folder, a missing file, a FIFO. */
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
