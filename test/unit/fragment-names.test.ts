/**
 * The fragment file naming rule (src/links/fragment-names.ts) over thousands of hostile keys: every name undoes back
 * to its key (so two keys never share a name), no two names differ by case alone (Windows and macOS), none is a name
 * Windows reserves, ends in a dot or a space, hides itself or reads as an option, and every one fits a file system.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fragmentFileName } from '../../src/links/fragment-names.js';

/** The rule undone: each `_xx` is a byte, anything else itself. Undefined for a name the rule cannot have made. */
function keyOf(name: string): string | undefined {
  const stem = name.replace(/\.html$/, '');
  if (stem === '_') return '';
  const bytes: number[] = [];
  for (let i = 0; i < stem.length;) {
    if (stem[i] === '_') {
      const pair = stem.slice(i + 1, i + 3);
      if (!/^[0-9a-f]{2}$/.test(pair)) return undefined;
      bytes.push(parseInt(pair, 16));
      i += 3;
    } else if (/[a-z0-9-]/.test(stem[i]!)) {
      bytes.push(stem.charCodeAt(i));
      i += 1;
    } else {
      return undefined;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A small seeded generator, so that a failure names a key that can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  ...'abcxyzABCXYZ0189-_.~/\\: %#?*<>|"\'\t\n'.split(''),
  'é',
  'É',
  'ß',
  'İ',
  'ı',
  'K', // Kelvin sign: folds to k on some file systems
  'e\u0301', // e and a combining accent: NFD
  '\u00e9', // é precomposed: NFC
  '😀',
  '\u202e',
  '\u0000',
  '_3a',
  '_2f',
  '_63',
  '~',
  'con',
  'CON',
  'nul',
  'com1',
  'LPT9',
];

const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

function hostileKeys(): string[] {
  const keys = new Set<string>([
    '',
    'a/b/c',
    'a_b_c',
    `a_b_c-${'0'.repeat(10)}`,
    'a_2fb_2fc',
    'eventor:49812-2',
    'Eventor:49812-2',
    'EVENTOR:49812-2',
    'races/2024/spring.xml#race 2',
    '-rf',
    '--help',
    '.hidden',
    '.',
    '..',
    '../../etc/passwd',
    'x.',
    'x ',
    'x. ',
    ...['CON', 'con', 'Con', 'PRN', 'AUX', 'NUL', 'nul', 'COM1', 'com9', 'LPT1', 'lpt9', 'COM0', 'LPT0'].flatMap(
      (r) => [r, `${r}.txt`, `${r}.html`, `${r}.`, `${r} `, `${r}.tar.gz`, ` ${r}`],
    ),
    'COM¹',
    'CONIN$',
    'conout$',
    'x'.repeat(150),
    'x'.repeat(151),
    `${'x'.repeat(300)}a`,
    `${'x'.repeat(300)}b`,
    `${'X'.repeat(300)}a`,
    `${'é'.repeat(200)}`,
    `${'_3a'.repeat(60)}`,
    `${':'.repeat(60)}`,
  ]);
  const next = random(18);
  for (let n = 0; n < 6000; n++) {
    const length = 1 + Math.floor(next() * (n % 10 === 0 ? 120 : 12));
    let key = '';
    for (let i = 0; i < length; i++) key += PIECES[Math.floor(next() * PIECES.length)];
    keys.add(key);
    // The same key in other cases: distinct keys a case-blind file system must still keep apart.
    keys.add(key.toUpperCase());
    keys.add(key.toLowerCase());
  }
  return [...keys];
}

describe('fragment file names', () => {
  const keys = hostileKeys();
  const names = keys.map((k) => fragmentFileName(k));

  it('undo back to their keys (up to 150 escaped characters), so no two keys share a name', () => {
    const wrong = keys.filter((k, i) => !names[i]!.includes('~') && keyOf(names[i]!) !== k);
    expect(wrong).toEqual([]);
    expect(names.filter((n) => !n.includes('~')).length).toBeGreaterThan(keys.length * 0.9);
  });

  it('never meet, not even on a file system blind to case', () => {
    expect(new Set(names).size).toBe(keys.length);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(keys.length);
    expect(names.every((n) => n === n.toLowerCase())).toBe(true);
    // The collision of the old rule: a/b/c and its cleaned form with a hash.
    expect(fragmentFileName('a/b/c')).not.toBe(fragmentFileName('a_b_c'));
    expect(fragmentFileName('Eventor:1')).not.toBe(fragmentFileName('eventor:1'));
  });

  it('are plain ASCII file names that fit everywhere: no reserved name, trailing dot or space, hidden file or option', () => {
    for (const name of names) {
      const stem = name.slice(0, -'.html'.length);
      expect(name).toMatch(/^[a-z0-9_~-]+\.html$/);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(160);
      // Windows reserves the part before the first dot, with any extension after it.
      expect(WINDOWS_RESERVED.test(stem.split('.')[0]!), name).toBe(false);
      expect(name.startsWith('-') || name.startsWith('.')).toBe(false);
      expect(/[. ]$/.test(stem)).toBe(false);
    }
    expect(fragmentFileName('CON')).toBe('_43_4f_4e.html');
    expect(fragmentFileName('con')).toBe('_63on.html');
    expect(fragmentFileName('eventor:49812-2')).toBe('eventor_3a49812-2.html');
    expect(fragmentFileName('')).toBe('_.html');
  });

  it('keep a long key readable at its start and distinct by its whole hash', () => {
    const a = fragmentFileName(`${'x'.repeat(300)}a`);
    const b = fragmentFileName(`${'x'.repeat(300)}b`);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^x{80}~[0-9a-f]{64}\.html$/);
    // Cut between escapes, never inside one.
    expect(fragmentFileName(':'.repeat(60))).toMatch(/^(?:_3a){26}~[0-9a-f]{64}\.html$/);
  });

  it('are as many files on disk as there are keys', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lb-names-'));
    try {
      for (const name of names) writeFileSync(join(dir, name), 'x');
      expect(readdirSync(dir)).toHaveLength(keys.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
