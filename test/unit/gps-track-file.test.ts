/**
 * `parseTrackFile` reads a route file in 64 KiB pieces: it must give what `parseTrack` gives for the same bytes (points,
 * format, creator, and the same refusals), whichever piece a tag or a character falls in, and refuse what is not a
 * regular file or is over the size limit without reading it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { parseTrack, parseTrackFile } from '../../src/gps/track.js';
import type { Track } from '../../src/gps/types.js';
import { realdataPath } from '../helpers/files.js';

/** `mkfifo` is a POSIX tool: the FIFO test needs it. */
const canMakeFifo = process.platform !== 'win32';

const dir = mkdtempSync(join(tmpdir(), 'gps-track-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a parse ends in: the track, or the refusal's reason, place and message. */
type Outcome =
  { track: Track } | { reason: string; line: number | undefined; column: number | undefined; message: string };

function outcome(error: unknown): Outcome {
  if (!(error instanceof InputError)) throw error;
  return { reason: error.reason, line: error.line, column: error.column, message: error.message };
}

function fromBytes(path: string): Outcome {
  try {
    return { track: parseTrack(readFileSync(path), path) };
  } catch (error) {
    return outcome(error);
  }
}

async function fromFile(path: string, options: Parameters<typeof parseTrackFile>[1] = {}): Promise<Outcome> {
  try {
    return { track: await parseTrackFile(path, options) };
  } catch (error) {
    return outcome(error);
  }
}

async function refusal(promise: Promise<unknown>): Promise<InputError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof InputError)) throw new Error(`expected an InputError, got ${String(error)}`);
  return error;
}

const REAL_FILES = ['gpx', 'tcx', 'fit'].flatMap((folder) =>
  readdirSync(realdataPath(folder)).map((name) => `${folder}/${name}`),
);

/** A GPX of `n` points, a non-ASCII name on each so that UTF-8 sequences fall across piece boundaries. */
function longGpx(n: number): string {
  const points = Array.from({ length: n }, (_, i) => {
    const time = new Date(Date.UTC(2024, 4, 1, 8) + i * 1000).toISOString();
    return `<trkpt lat="${(59.3 + i / 1e5).toFixed(7)}" lon="18.0"><ele>${i % 50}</ele><time>${time}</time><name>Åre—ø ${i}</name></trkpt>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="test"><trk><trkseg>\n${points.join('\n')}\n</trkseg></trk></gpx>\n`;
}

describe('parseTrackFile gives what parseTrack gives', () => {
  it('finds real GPX, TCX and FIT files to compare', () => {
    expect(REAL_FILES.filter((f) => f.startsWith('gpx/')).length).toBeGreaterThan(0);
    expect(REAL_FILES.filter((f) => f.startsWith('tcx/')).length).toBeGreaterThan(0);
    expect(REAL_FILES.filter((f) => f.startsWith('fit/')).length).toBeGreaterThan(0);
  });

  it.each(REAL_FILES)('reads %s as parseTrack reads its bytes (points, or the same refusal)', async (file) => {
    const path = realdataPath(file);
    expect(await fromFile(path)).toEqual(fromBytes(path));
  });

  it('reads a GPX of many 64 KiB pieces, tags and characters cut at piece boundaries, to the same points', async () => {
    const path = join(dir, 'long.gpx');
    writeFileSync(path, longGpx(5000));
    expect(readFileSync(path).byteLength).toBeGreaterThan(8 * 64 * 1024);
    const streamed = await parseTrackFile(path);
    expect(streamed.points).toHaveLength(5000);
    expect(streamed).toEqual(parseTrack(readFileSync(path), path));
  });

  it('reports a GPX damaged after its first piece with the same line as parseTrack', async () => {
    const path = join(dir, 'damaged.gpx');
    writeFileSync(path, longGpx(3000).replace('</trkseg>', '</trksegg>'));
    const streamed = await fromFile(path);
    expect(streamed).toMatchObject({ reason: 'not_well_formed' });
    expect(streamed).toEqual(fromBytes(path));
  });
});

describe('parseTrackFile refusals', () => {
  it('refuses an empty file as empty', async () => {
    const path = join(dir, 'empty.gpx');
    writeFileSync(path, '');
    expect((await refusal(parseTrackFile(path))).reason).toBe('empty');
  });

  it('refuses a file over maxBytes as too_large, naming the limit, and reads one of exactly maxBytes', async () => {
    const path = join(dir, 'sized.gpx');
    writeFileSync(path, longGpx(10));
    const size = readFileSync(path).byteLength;
    const error = await refusal(parseTrackFile(path, { maxBytes: size - 1 }));
    expect(error.reason).toBe('too_large');
    expect(error.message).toContain(`${size - 1} bytes`);
    expect((await parseTrackFile(path, { maxBytes: size })).points).toHaveLength(10);
  });

  it.skipIf(!canMakeFifo)('refuses a named pipe as not_a_file instead of waiting on it forever', async () => {
    const path = join(dir, 'pipe.gpx');
    execFileSync('mkfifo', [path]);
    const error = await refusal(parseTrackFile(path));
    expect(error.reason).toBe('not_a_file');
    expect(error.message).toContain('named pipe');
  });

  it('refuses a directory as not_a_file', async () => {
    const path = join(dir, 'folder.gpx');
    mkdirSync(path);
    expect((await refusal(parseTrackFile(path))).reason).toBe('not_a_file');
  });

  it('refuses a missing file as unreadable', async () => {
    expect((await refusal(parseTrackFile(join(dir, 'missing.gpx')))).reason).toBe('unreadable');
  });

  it('refuses a file that is not a route as unknown_format, as parseTrack does', async () => {
    const path = join(dir, 'notes.gpx');
    writeFileSync(path, 'lat,lon,time\n1,2,2020-01-01T00:00:00Z\n');
    expect(await fromFile(path)).toMatchObject({ reason: 'unknown_format' });
    expect(await fromFile(path)).toEqual(fromBytes(path));
  });

  it('rejects with the signal reason when aborted', async () => {
    const path = join(dir, 'aborted.gpx');
    writeFileSync(path, longGpx(10));
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(parseTrackFile(path, { signal: controller.signal })).rejects.toBe(reason);
  });
});
