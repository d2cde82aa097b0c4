/** `1 event` / `3 events`; `many` for words that do not just take an -s (`class`, `classes`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
