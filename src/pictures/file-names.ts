/**
 * File names for drawings written side by side (one SVG per course), made from names people chose: safe on every
 * file system we meet (letters, digits, `-`, `_` and `.` only; no name Windows reserves; never hidden; not too long),
 * readable (`Brown 1` is `brown-1.svg`), and never two alike, even where a file system ignores case.
 */

/** Names Windows refuses as a file's base name, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/;
const MAX_BASE = 60;

/** The readable part: accents dropped (`Å` is `a`), anything else not safe one dash, lower case. */
function base(name: string): string {
  const plain = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_BASE)
    .replace(/[-.]+$/, '');
  if (plain === '') return 'course';
  // Windows reserves the part before the first dot (`nul.txt` too).
  const [first, ...rest] = plain.split('.');
  return RESERVED.test(first!) ? [`${first!}-`, ...rest].join('.') : plain;
}

/**
 * One file name per name, in order, each ending in `extension` (`.svg`): the second name that comes out the same
 * gets `-2`, the third `-3`, and so on, checked against every name given out so far.
 */
export function uniqueFileNames(names: readonly string[], extension: string): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const b = base(name);
    let candidate = `${b}${extension}`;
    for (let i = 2; taken.has(candidate.toLowerCase()); i++) candidate = `${b}-${i}${extension}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
