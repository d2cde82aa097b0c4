/**
 * The file name of a portal event's fragment, from its key. Keys are anything a portal chose (`eventor:49812-2`, a
 * path such as `2024/spring.xml#race 2`, `CON`), and the names land on every kind of file system, so the rule is an
 * escape that can be undone, not a cleaning that merges keys:
 *
 * - each of `a`-`z`, `0`-`9` and `-` stands for itself; every other UTF-8 byte of the key (capitals, `_`, `.`, `/`,
 *   `:`, spaces, accents...) becomes `_` and its two lower-case hex digits (`:` is `_3a`, `A` is `_41`);
 * - a leading `-` is escaped too (`_2d`: no name reads as a command-line option), and so is the first letter of a name
 *   Windows reserves (`con` is `_63on`: CON, PRN, AUX, NUL, COM0-9, LPT0-9);
 * - the name is that, then `.html`; an empty key is `_.html`;
 * - an escaped key longer than `MAX_ESCAPED` characters keeps its first `KEPT_PREFIX` (cut between escapes), then
 *   `~` and the key's whole SHA-256 in hex.
 *
 * Why two keys never share a file: up to `MAX_ESCAPED` every name decodes back to its key (each `_` is followed by
 * exactly two hex digits, and the escaped forms of the special cases are bytes the plain rule never escapes, so they
 * decode to the same key), hence different keys give different names; a longer key's name is the only kind holding
 * `~`, so it meets no short name, and two long names meet only if SHA-256 collides. Names use lower-case letters
 * only, so no two differ by case alone (Windows and macOS compare names without case), none ends in a dot or a space,
 * and none has a dot before `.html` (Windows reserves `CON.txt` as it does `CON`). test/unit/fragment-names.test.ts
 * undoes the escape over many hostile keys.
 */
import { createHash } from 'node:crypto';

/** Escaped keys up to this many characters are kept whole: with `.html`, far below 255 bytes on any file system. */
const MAX_ESCAPED = 150;
/** What a longer key keeps of its escaped form before `~` and its hash. */
const KEPT_PREFIX = 80;

const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

const hex = (byte: number): string => `_${byte.toString(16).padStart(2, '0')}`;

function escapeKey(key: string): string[] {
  const tokens: string[] = [];
  for (const byte of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(byte);
    tokens.push(/^[a-z0-9-]$/.test(c) && !(c === '-' && tokens.length === 0) ? c : hex(byte));
  }
  // Only a name of plain letters and digits can be a reserved one; its first letter escaped, it is not.
  if (WINDOWS_RESERVED.test(tokens.join(''))) tokens[0] = hex(tokens[0]!.charCodeAt(0));
  return tokens;
}

/** The fragment file of a portal key (the rule above): distinct keys, distinct names, on every file system. */
export function fragmentFileName(key: string): string {
  const tokens = escapeKey(key);
  const escaped = tokens.join('');
  if (escaped.length === 0) return '_.html';
  if (escaped.length <= MAX_ESCAPED) return `${escaped}.html`;
  let kept = '';
  for (const t of tokens) {
    if (kept.length + t.length > KEPT_PREFIX) break;
    kept += t;
  }
  return `${kept}~${createHash('sha256').update(key, 'utf8').digest('hex')}.html`;
}
