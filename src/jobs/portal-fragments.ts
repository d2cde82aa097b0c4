/**
 * `sync`'s folder of fragments: one HTML fragment per portal event (links/fragment.ts), named by fragment-names.ts,
 * `index.json` saying which file is whose, and a manifest of the files this module wrote, so that the fragments of
 * portal events that left the portal are removed and nothing else ever is. A fragment whose links did not change is
 * left as it is (same bytes, same "last updated" stamp), so a portal's cache and a copy by rsync see no change.
 *
 * Every file is written atomically, in an order that leaves the manifest covering every fragment written whatever
 * point a run is killed at: the manifest first (the fragments about to be written and the old ones still there),
 * then the fragments, the index (every file it names exists), the removals, and the manifest again. A manifest that
 * is missing or damaged removes nothing: the result says so, and the files it cannot vouch for are left.
 *
 * A file already at a fragment's name that no good manifest lists is not ours to replace (a person's `welcome.html`
 * where the event keyed `welcome` would go): it is never written over, and the event is a conflict (not in the index,
 * not in the manifest) until a person moves the file away. With the manifest missing or damaged no file can be proved
 * ours, so every fragment already on disk is such a conflict: the safe side, as removal is.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { errnoCode, readInputFile, writeFileAtomic } from '../core/files.js';
import { escapeJsonControls } from '../core/printable.js';
import { checkFragmentOptions, FRAGMENT_CSS, type FragmentOptions } from '../links/fragment.js';
import { fragmentFileName } from '../links/fragment-names.js';
import { portalFragment, type FragmentIndexEntry, type PortalLinks } from '../links/portal.js';
import { byField } from '../core/order.js';

/**
 * The index a portal reads: `{ formatVersion: 1, fragments: FragmentIndexEntry[] }`, sorted by key (UTF-16 code units,
 * as JavaScript compares strings): the same order whatever order the portal listed its events in.
 */
export const FRAGMENT_INDEX_FILE = 'index.json';
/** The files this module wrote, with their hashes: what a later run may remove. */
export const FRAGMENT_MANIFEST_FILE = 'livelox-manifest.json';
/** The default stylesheet's file, written on request. */
export const FRAGMENT_CSS_FILE = 'livelox-links.css';

export interface WritePortalFragmentsOptions extends Omit<FragmentOptions, 'updated'> {
  /** Also write the default stylesheet (`FRAGMENT_CSS`) as `livelox-links.css`. Default false. */
  css?: boolean;
  /** The clock of the stamps of fragments that changed. Default `new Date()`. */
  now?: () => Date;
}

/** What the manifest said: `ok`, or why no fragment was removed. */
export type FragmentManifestState = 'ok' | 'missing' | 'damaged';

export interface PortalFragmentsResult {
  /** One entry per portal event but the conflicts, sorted by key: what `index.json` holds. */
  index: FragmentIndexEntry[];
  /** Fragments written this run (new, or their links changed). */
  written: string[];
  /** Fragments left as they were: their links did not change. */
  unchanged: number;
  /** Fragments of portal events no longer in the portal, removed. */
  removed: string[];
  manifest: FragmentManifestState;
  /**
   * `.html` files in the folder that are no portal event's fragment and that no manifest let this run remove: a
   * person's files, or, when the manifest was missing or damaged, possibly fragments of events gone from the portal.
   */
  left: string[];
  /**
   * Portal events whose fragment was not written because a file this tool cannot prove it wrote is at its name (no
   * good manifest lists it): left as it is, for a person to move away. Sorted by key.
   */
  conflicts: FragmentConflict[];
}

/** A portal event whose fragment's name is taken by a file that is not ours. */
export interface FragmentConflict {
  key: string;
  file: string;
}

const MANIFEST = z.object({
  formatVersion: z.literal(1),
  files: z.array(
    z.object({ file: z.string(), key: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), updated: z.string() }),
  ),
});
type ManifestEntry = z.infer<typeof MANIFEST>['files'][number];

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The manifest's entries by file, or why there are none. An entry whose file is not its key's name is damage (or a
 * hand-made path such as `../x`): the whole manifest is then distrusted, and nothing removed.
 */
async function readManifest(
  dir: string,
): Promise<{ state: FragmentManifestState; entries: Map<string, ManifestEntry> }> {
  let bytes: Buffer;
  try {
    bytes = await readInputFile(join(dir, FRAGMENT_MANIFEST_FILE), { maxBytes: 64 * 1024 * 1024 });
  } catch (err) {
    const missing = errnoCode((err as { cause?: unknown }).cause) === 'ENOENT';
    return { state: missing ? 'missing' : 'damaged', entries: new Map() };
  }
  let parsed;
  try {
    parsed = MANIFEST.safeParse(JSON.parse(bytes.toString('utf8')));
  } catch {
    return { state: 'damaged', entries: new Map() };
  }
  if (!parsed.success || parsed.data.files.some((f) => fragmentFileName(f.key) !== f.file)) {
    return { state: 'damaged', entries: new Map() };
  }
  return { state: 'ok', entries: new Map(parsed.data.files.map((f) => [f.file, f])) };
}

async function writeManifest(dir: string, entries: Iterable<ManifestEntry>): Promise<void> {
  const files = [...entries].sort(byField('file'));
  const text = escapeJsonControls(JSON.stringify({ formatVersion: 1, files }, null, 2));
  await writeIfChanged(join(dir, FRAGMENT_MANIFEST_FILE), `${text}\n`);
}

/**
 * The bytes on disk, or undefined when there are none to compare with (read as every file is, so that a named pipe put
 * in a fragment's place cannot block the run).
 */
async function currentBytes(file: string): Promise<Buffer | undefined> {
  try {
    return await readInputFile(file, { maxBytes: 16 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}

/** Writes `text` unless the file holds it already: a quiet night leaves the folder's files (and their times) alone. */
async function writeIfChanged(file: string, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  const now = await currentBytes(file);
  if (now === undefined || !now.equals(bytes)) await writeFileAtomic(file, bytes);
}

type Planned = Writable | (FragmentConflict & { conflict: true });

interface Writable {
  conflict?: undefined;
  entry: ManifestEntry;
  index: FragmentIndexEntry;
  /** The fragment's bytes, or undefined when the file already holds them. */
  bytes: Uint8Array | undefined;
}

/**
 * A portal event's fragment: rendered with the stamp its manifest entry has, and kept when that gives the bytes the
 * file already holds (its links did not change); otherwise rendered with the stamp `now`, to be written.
 */
async function plan(
  dir: string,
  link: PortalLinks,
  file: string,
  before: ManifestEntry | undefined,
  options: WritePortalFragmentsOptions,
  now: Date,
): Promise<Planned> {
  const index = (updated: string): FragmentIndexEntry => ({
    key: link.key,
    file,
    status: link.status,
    ...(link.eventId === undefined ? {} : { eventId: link.eventId }),
    updated,
  });
  // Not in a good manifest: whatever is at the name (a file, a folder, a link) is someone else's.
  if (before === undefined && (await exists(join(dir, file)))) return { conflict: true, key: link.key, file };
  if (before !== undefined && before.key === link.key && !Number.isNaN(Date.parse(before.updated))) {
    const again = Buffer.from(portalFragment(link, { ...options, updated: new Date(before.updated) }), 'utf8');
    const onDisk = await currentBytes(join(dir, file));
    if (sha256(again) === before.sha256 && onDisk !== undefined && sha256(onDisk) === before.sha256) {
      return { entry: before, index: index(before.updated), bytes: undefined };
    }
  }
  const bytes = Buffer.from(portalFragment(link, { ...options, updated: now }), 'utf8');
  const updated = now.toISOString();
  return { entry: { file, key: link.key, sha256: sha256(bytes), updated }, index: index(updated), bytes };
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Removes the stale fragments the manifest lists. Answers those removed now and those that stay (a file turned into a
 * folder, or one this process may not remove: listed again, for a later run); one already gone (a killed run removed
 * it) is neither.
 */
async function removeStale(dir: string, stale: readonly string[]): Promise<{ removed: string[]; kept: string[] }> {
  const removed: string[] = [];
  const kept: string[] = [];
  for (const file of stale) {
    try {
      await unlink(join(dir, file));
      removed.push(file);
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'ENOENT') continue;
      if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EACCES') throw err;
      kept.push(file);
    }
  }
  return { removed, kept };
}

/**
 * Writes the fragments of `links` (one per portal event) into `dir`, which must exist, with `index.json` and the
 * manifest, and removes the fragments of portal events that are no longer in `links` (only files a manifest of this
 * module lists). Throws a `ValidationError` for options a fragment cannot say, and the file system's errors.
 */
export async function writePortalFragments(
  dir: string,
  links: readonly PortalLinks[],
  options: WritePortalFragmentsOptions = {},
): Promise<PortalFragmentsResult> {
  checkFragmentOptions(options);
  const now = (options.now ?? (() => new Date()))();
  const manifest = await readManifest(dir);
  const all: Planned[] = [];
  // Sorted by key, stably: the index's order is the keys', not the order the portal happened to list them in.
  for (const link of [...links].sort(byField('key'))) {
    const file = fragmentFileName(link.key);
    all.push(await plan(dir, link, file, manifest.entries.get(file), options, now));
  }
  const planned = all.filter((p): p is Writable => p.conflict !== true);
  const conflicts = all.filter((p) => p.conflict === true).map((p) => ({ key: p.key, file: p.file }));
  const names = new Set(all.map((p) => (p.conflict === true ? p.file : p.entry.file)));
  if (names.size !== all.length) throw new TypeError('two portal events share a key: keys must be unique');
  const files = new Set(planned.map((p) => p.entry.file));
  const stale = [...manifest.entries.keys()].filter((f) => !files.has(f));

  // The manifest first: a run killed after it leaves no fragment that the next run would not know as its own.
  await writeManifest(dir, [...planned.map((p) => p.entry), ...stale.map((f) => manifest.entries.get(f)!)]);
  const written: string[] = [];
  for (const p of planned) {
    if (p.bytes === undefined) continue;
    await writeFileAtomic(join(dir, p.entry.file), p.bytes);
    written.push(p.entry.file);
  }
  if (options.css === true) await writeIfChanged(join(dir, FRAGMENT_CSS_FILE), FRAGMENT_CSS);
  const index = planned.map((p) => p.index);
  await writeIfChanged(
    join(dir, FRAGMENT_INDEX_FILE),
    `${escapeJsonControls(JSON.stringify({ formatVersion: 1, fragments: index }, null, 2))}\n`,
  );
  const { removed, kept } = await removeStale(dir, stale);
  await writeManifest(dir, [...planned.map((p) => p.entry), ...kept.map((f) => manifest.entries.get(f)!)]);
  const left = (await readdir(dir)).filter((f) => f.endsWith('.html') && !names.has(f) && !removed.includes(f)).sort();
  return {
    index,
    written,
    unchanged: planned.length - written.length,
    removed,
    manifest: manifest.state,
    left,
    conflicts,
  };
}
