/**
 * Dates as event systems write them: a local date (`2025-04-26`) or a local date-time with or without an offset
 * (`2025-04-26T10:00:00+02:00`). Their date part is the event's local day, which is what matching compares.
 */

export const DAY_MS = 86_400_000;

/** Midnight UTC of the written date part, or undefined when it is not a real calendar date (`2025-02-30`). */
export function writtenDateMs(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  // Date.UTC rolls 2025-02-30 over to March 2nd: a date that does not come back unchanged does not exist.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  return ms;
}

/** The day number (days since 1970-01-01) of the written date part. */
export function writtenDay(text: string): number | undefined {
  const ms = writtenDateMs(text);
  return ms === undefined ? undefined : Math.floor(ms / DAY_MS);
}

/** Hours east of UTC that a written date-time states (`+13:00`, `Z`), or undefined when it states none. */
export function writtenOffsetHours(text: string): number | undefined {
  const m = /T[\d:.]+(Z|([+-])(\d{2}):?(\d{2}))$/.exec(text);
  if (!m) return undefined;
  if (m[1] === 'Z') return 0;
  return (m[2] === '-' ? -1 : 1) * (Number(m[3]) + Number(m[4]) / 60);
}

/** First and last written day of an event, in order, from whichever of start and end it has. */
export function eventDays(
  start: string | undefined,
  end: string | undefined,
): { first: number; last: number } | undefined {
  const a = start === undefined ? undefined : writtenDay(start);
  const b = end === undefined ? undefined : writtenDay(end);
  const first = a ?? b;
  const last = b ?? a;
  if (first === undefined || last === undefined) return undefined;
  // An end before the start is a typing slip in the export, not an event running backwards.
  return { first: Math.min(first, last), last: Math.max(first, last) };
}
