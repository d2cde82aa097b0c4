import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildZip, readZip } from '../../src/core/zip.js';
import { InputError } from '../../src/errors.js';

const text = (s: string) => new TextEncoder().encode(s);

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as InputError).reason;
  }
  throw new Error('expected an InputError');
}

/** Offsets of the central directory entries of a zip (signature 0x02014b50). */
function centralHeaders(zip: Uint8Array): number[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at: number[] = [];
  for (let i = 0; i + 4 <= zip.length; i++) if (view.getUint32(i, true) === 0x02014b50) at.push(i);
  return at;
}

describe('buildZip', () => {
  it('writes a flat zip, names as given, that another reader (fflate) reads back', () => {
    const zip = buildZip([
      { name: 'CourseData.xml', bytes: text('<CourseData/>') },
      { name: 'Karta Älvsjö.png', bytes: new Uint8Array([1, 2, 3]) },
    ]);
    const back = unzipSync(zip);
    expect(Object.keys(back).sort()).toEqual(['CourseData.xml', 'Karta Älvsjö.png']);
    expect(new TextDecoder().decode(back['CourseData.xml'])).toBe('<CourseData/>');
  });

  it('sets the UTF-8 name flag on every entry, local and central headers alike', () => {
    const zip = buildZip([
      { name: 'a.xml', bytes: text('x') },
      { name: 'kärta.png', bytes: text('y') },
    ]);
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const central = centralHeaders(zip);
    expect(central).toHaveLength(2);
    for (const at of central) {
      expect(view.getUint16(at + 8, true) & 0x0800).toBe(0x0800);
      const local = view.getUint32(at + 42, true);
      expect(view.getUint16(local + 6, true) & 0x0800).toBe(0x0800);
    }
  });

  it.each(['maps/a.png', '..', 'a\\b', ''])('refuses the name %j (flat names only)', (name) => {
    expect(reason(() => buildZip([{ name, bytes: text('x') }]))).toBe('bad_zip_name');
  });

  it('refuses a name given twice', () => {
    const entry = { name: 'a.xml', bytes: text('x') };
    expect(reason(() => buildZip([entry, entry]))).toBe('bad_zip_name');
  });
});

describe('readZip', () => {
  it('reads back what buildZip wrote, stored or deflated', () => {
    const big = new Uint8Array(100_000).fill(7);
    const entries = readZip(
      buildZip([
        { name: 'a.xml', bytes: text('<a/>') },
        { name: 'b.bin', bytes: big },
        { name: 'empty.txt', bytes: new Uint8Array(0) },
      ]),
    );
    expect(entries.map((e) => [e.name, e.bytes.length])).toEqual([
      ['a.xml', 4],
      ['b.bin', 100_000],
      ['empty.txt', 0],
    ]);
    expect(entries[1]!.bytes.every((b) => b === 7)).toBe(true);
    const stored = zipSync({ 's.txt': [text('stored'), { level: 0 }] });
    expect(new TextDecoder().decode(readZip(stored)[0]!.bytes)).toBe('stored');
  });

  it('refuses an entry that inflates to more than it declares (a zip bomb), before inflating it all', () => {
    const zip = zipSync({ 'bomb.bin': new Uint8Array(4 * 1024 * 1024) });
    // The directory and the local header claim 1000 bytes; the data inflates to 4 MiB.
    const view = new DataView(zip.buffer);
    const central = centralHeaders(zip)[0]!;
    view.setUint32(central + 24, 1000, true);
    view.setUint32(view.getUint32(central + 42, true) + 22, 1000, true);
    expect(reason(() => readZip(zip))).toBe('zip_too_large');
  });

  it('refuses declared sizes past the limits before inflating anything', () => {
    const zip = buildZip([{ name: 'a.bin', bytes: new Uint8Array(5000) }]);
    expect(reason(() => readZip(zip, 'upload', { maxEntryBytes: 4000 }))).toBe('zip_too_large');
    const two = buildZip([
      { name: 'a.bin', bytes: new Uint8Array(3000) },
      { name: 'b.bin', bytes: new Uint8Array(3000) },
    ]);
    expect(reason(() => readZip(two, 'upload', { maxTotalBytes: 5000 }))).toBe('zip_too_large');
  });

  it('refuses too many entries', () => {
    const entries = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, bytes: text('x') }));
    expect(reason(() => readZip(buildZip(entries), 'upload', { maxEntries: 10 }))).toBe('zip_too_many_entries');
  });

  it.each([
    ['nested', { maps: { 'a.png': text('x') } }],
    ['parent', { '../evil.xml': text('x') }],
  ] as const)('refuses a %s path', (_kind, files) => {
    expect(reason(() => readZip(zipSync(files as never)))).toBe('bad_zip_name');
  });

  it('refuses an entry whose checksum does not match (damaged)', () => {
    const zip = buildZip([{ name: 'a.txt', bytes: text('hello, stored and checked') }]);
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const central = centralHeaders(zip)[0]!;
    view.setUint32(central + 16, view.getUint32(central + 16, true) ^ 1, true);
    expect(reason(() => readZip(zip))).toBe('not_zip');
  });

  it('refuses what is not a zip, and a zip cut short', () => {
    expect(reason(() => readZip(text('not a zip at all, just some text that goes on')))).toBe('not_zip');
    const zip = buildZip([{ name: 'a.bin', bytes: new Uint8Array(5000).map((_, i) => i * 7) }]);
    const cut = new Uint8Array([...zip.subarray(0, 40), ...zip.subarray(zip.length - 80)]);
    expect(reason(() => readZip(cut))).toBe('not_zip');
  });
});
