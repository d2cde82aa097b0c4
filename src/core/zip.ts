/**
 * Zip files, both ways, in memory: `buildZip` writes the one `files.zip` an importable event's upload carries (as Purple
 * Pen sends it: flat, names as the importable-event object gives them, the UTF-8 name flag set on every entry), and
 * `readZip` reads one back (the simulator takes uploads with it) within limits, so that a zip bomb, a zip of a million
 * entries or an entry named `../x` is refused with a typed error before it costs memory. fflate does the deflating and
 * inflating (in memory, no dependencies); the archive's directory is read here, because the limits must be checked
 * before any entry is inflated, and an entry's inflated size must be counted as it grows, not trusted from its header.
 */
import { crc32 } from 'node:zlib';
import { Inflate, zipSync } from 'fflate';
import { InputError } from '../errors.js';

export interface ZipEntry {
  /** The entry's name: a plain file name, no folder. */
  name: string;
  bytes: Uint8Array;
}

export interface ZipLimits {
  /** Most entries. Default 100. */
  maxEntries?: number;
  /** Largest inflated entry, in bytes. Default 200 MiB. */
  maxEntryBytes?: number;
  /** Largest inflated total, in bytes. Default 400 MiB. */
  maxTotalBytes?: number;
}

export const DEFAULT_ZIP_LIMITS: Required<ZipLimits> = {
  maxEntries: 100,
  maxEntryBytes: 200 * 1024 * 1024,
  maxTotalBytes: 400 * 1024 * 1024,
};

/** Bit 11 of the general-purpose flags: the entry's name is UTF-8 (APPNOTE 4.4.4). */
const UTF8_NAME_FLAG = 0x0800;
const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
/** Chunk fed to the inflater: the inflated count is checked after each, so a bomb stops within a chunk's output. */
const INFLATE_CHUNK = 16 * 1024;

/**
 * Why a name is not a plain file name (a folder, a parent, an absolute or empty name), or undefined when it is one.
 * Shared by both directions: we never write a name we would refuse to read.
 */
export function zipNameProblem(name: string): string | undefined {
  if (name === '' || name.trim() === '') return 'is empty';
  if (/[/\\]/.test(name)) return 'names a folder (the zip is flat: a file name only)';
  if (name === '.' || name === '..') return 'is not a file name';
  if (/^[A-Za-z]:/.test(name)) return 'is a drive path';
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'contains a control character';
  if (Buffer.byteLength(name) > 255) return 'is longer than 255 bytes';
  return undefined;
}

/**
 * One flat zip of `entries`, deflated, every name flagged UTF-8 (Purple Pen's writer sets the flag on every entry;
 * fflate sets it only on names beyond ASCII, where it matters, so it is set on the others afterwards). Names must be
 * plain file names, each once; `InputError` `bad_zip_name` otherwise.
 */
export function buildZip(entries: readonly ZipEntry[], options: { mtime?: Date } = {}): Uint8Array {
  const seen = new Set<string>();
  // fflate takes a record keyed by name: a prototype-free one, so that a file named `__proto__` is a file.
  const files = Object.create(null) as Record<string, [Uint8Array, { mtime: Date }]>;
  const mtime = options.mtime ?? new Date();
  for (const entry of entries) {
    const problem = zipNameProblem(entry.name);
    if (problem !== undefined) throw new InputError(entry.name, 'bad_zip_name', `the file name ${problem}.`);
    if (seen.has(entry.name)) {
      throw new InputError(entry.name, 'bad_zip_name', 'is named twice; a zip entry name must be unique.');
    }
    seen.add(entry.name);
    files[entry.name] = [entry.bytes, { mtime }];
  }
  const zip = zipSync(files, { level: 6 });
  for (const e of readDirectory(zip, 'files.zip', Infinity)) {
    setFlag(zip, e.headerOffset + 8, UTF8_NAME_FLAG);
    setFlag(zip, e.localOffset + 6, UTF8_NAME_FLAG);
  }
  return zip;
}

/**
 * The entries of a zip, inflated within `limits`. Refused with `InputError` (source `source`): `not_zip` (no
 * readable directory, an encrypted entry, an unknown compression, a checksum that does not match), `bad_zip_name` (a folder, `..`, a name twice),
 * `zip_too_many_entries`, `zip_too_large` (declared or inflated sizes beyond the limits, or an entry that inflates
 * to more than it declares: a zip bomb).
 */
export function readZip(bytes: Uint8Array, source = 'zip', limits: ZipLimits = {}): ZipEntry[] {
  const max = { ...DEFAULT_ZIP_LIMITS, ...limits };
  const directory = readDirectory(bytes, source, max.maxEntries);
  const seen = new Set<string>();
  let declaredTotal = 0;
  for (const e of directory) {
    const problem = zipNameProblem(e.name);
    if (problem !== undefined) throw new InputError(source, 'bad_zip_name', `the entry '${e.name}' ${problem}.`);
    if (seen.has(e.name)) throw new InputError(source, 'bad_zip_name', `the entry '${e.name}' is there twice.`);
    seen.add(e.name);
    if (e.flags & 1) throw new InputError(source, 'not_zip', `the entry '${e.name}' is encrypted.`);
    if (e.method !== 0 && e.method !== 8) {
      throw new InputError(source, 'not_zip', `the entry '${e.name}' uses compression method ${e.method}.`);
    }
    if (e.size > max.maxEntryBytes) throw tooLarge(source, `the entry '${e.name}' declares ${e.size} bytes`, max);
    declaredTotal += e.size;
    if (declaredTotal > max.maxTotalBytes) throw tooLarge(source, `the entries declare ${declaredTotal} bytes`, max);
  }
  return directory.map((e) => {
    const entry = entryBytes(bytes, e, source);
    // The checksum the writer recorded: a damaged or altered entry is refused, not handed on as a course file.
    if (crc32(entry) >>> 0 !== e.crc) {
      throw new InputError(source, 'not_zip', `the entry '${e.name}' fails its checksum (CRC-32): it is damaged.`);
    }
    return { name: e.name, bytes: entry };
  });
}

interface DirectoryEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  /** The inflated size the directory declares. */
  size: number;
  headerOffset: number;
  localOffset: number;
}

function readDirectory(bytes: Uint8Array, source: string, maxEntries: number): DirectoryEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const notZip = (why: string) => new InputError(source, 'not_zip', `is not a zip file we can read: ${why}.`);
  // The end record is the last 22 bytes, or earlier by a comment of at most 65535 bytes.
  let end = -1;
  for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - 22 - 65535; i--) {
    if (view.getUint32(i, true) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw notZip('no end of central directory');
  const count = view.getUint16(end + 10, true);
  const start = view.getUint32(end + 16, true);
  if (count === 0xffff || start === 0xffffffff) throw notZip('a zip64 archive');
  if (count > maxEntries) {
    throw new InputError(source, 'zip_too_many_entries', `has ${count} entries, more than the ${maxEntries} taken.`);
  }
  const entries: DirectoryEntry[] = [];
  let at = start;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL_HEADER)
      throw notZip(`directory entry ${i + 1} is broken`);
    const nameLength = view.getUint16(at + 28, true);
    const rest = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (at + 46 + rest > end) throw notZip(`directory entry ${i + 1} runs past the directory`);
    const flags = view.getUint16(at + 8, true);
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    entries.push({
      // Without the UTF-8 flag a name is in the DOS code page; its ASCII part reads the same either way.
      name: new TextDecoder(flags & UTF8_NAME_FLAG ? 'utf-8' : 'latin1').decode(nameBytes),
      flags,
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      headerOffset: at,
      localOffset: view.getUint32(at + 42, true),
    });
    at += 46 + rest;
  }
  return entries;
}

function entryBytes(bytes: Uint8Array, e: DirectoryEntry, source: string): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = e.localOffset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL_HEADER) {
    throw new InputError(source, 'not_zip', `the entry '${e.name}' has no local header.`);
  }
  const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const dataEnd = dataStart + e.compressedSize;
  if (dataEnd > bytes.length) throw new InputError(source, 'not_zip', `the entry '${e.name}' is cut short.`);
  const data = bytes.subarray(dataStart, dataEnd);
  if (e.method === 0) {
    if (data.length !== e.size) throw new InputError(source, 'not_zip', `the entry '${e.name}' has the wrong size.`);
    return data.slice();
  }
  return inflateBounded(data, e, source);
}

/** Inflates chunk by chunk and stops as soon as the output passes what the entry declared: a bomb stops there. */
function inflateBounded(data: Uint8Array, e: DirectoryEntry, source: string): Uint8Array {
  const out = new Uint8Array(e.size);
  let length = 0;
  const inflater = new Inflate((chunk) => {
    if (length + chunk.length > e.size) {
      throw new InputError(
        source,
        'zip_too_large',
        `the entry '${e.name}' inflates to more than the ${e.size} bytes it declares (a zip bomb?); it was not read further.`,
      );
    }
    out.set(chunk, length);
    length += chunk.length;
  });
  try {
    for (let at = 0; at < data.length; at += INFLATE_CHUNK) {
      inflater.push(data.subarray(at, at + INFLATE_CHUNK), at + INFLATE_CHUNK >= data.length);
    }
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(source, 'not_zip', `the entry '${e.name}' does not inflate: ${(err as Error).message}.`, {
      cause: err,
    });
  }
  if (length !== e.size) {
    throw new InputError(source, 'not_zip', `the entry '${e.name}' inflates to ${length} bytes, not ${e.size}.`);
  }
  return out;
}

function tooLarge(source: string, what: string, max: Required<ZipLimits>): InputError {
  return new InputError(
    source,
    'zip_too_large',
    `${what}, more than taken (${max.maxEntryBytes} bytes an entry, ${max.maxTotalBytes} in all).`,
  );
}

function setFlag(bytes: Uint8Array, at: number, flag: number): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setUint16(at, view.getUint16(at, true) | flag, true);
}
