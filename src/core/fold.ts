/**
 * Folding text for comparison: case, accents, and the Nordic and Central European letters that Unicode does not
 * decompose. One rule for every place names are compared (event and class matching, country names), so that a name
 * that matches in one place matches in all.
 */

// NFKD leaves these whole: without them "Bækkelagets" and "Baekkelagets", "Łódź" and "Lodz" would differ.
const LETTERS: Readonly<Record<string, string>> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/** Lower case, accents removed, special letters spelt out, anything but letters and digits turned into one space. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[øæœßłđðþı]/g, (c) => LETTERS[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
