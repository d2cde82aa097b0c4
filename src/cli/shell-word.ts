/** A word as a POSIX shell needs it to be one word: as it is when it holds nothing a shell reads, else quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
