/**
 * The generated dataset's calendar: its fixed date range and "today", and local time in the profiles' countries. The
 * EU summer-time rule and Easter are computed by arithmetic so that no time-zone database (which differs between
 * Node builds) is involved, and the range is fixed, never the clock, so that a seed gives the same data every day.
 */

/** First instant of the generated date range (2022-01-01T00:00:00Z). */
export const DATASET_START_MS = Date.UTC(2022, 0, 1);
/** End of the generated date range, exclusive (2028-01-01T00:00:00Z): events run until 2027-12-31. */
export const DATASET_END_MS = Date.UTC(2028, 0, 1);
/**
 * The dataset's "today" (2026-11-01T00:00:00Z): events starting later are still to come (mostly unpublished, no
 * participants yet). Fixed so that the data does not change with the date it is generated on.
 */
export const DATASET_REFERENCE_MS = Date.UTC(2026, 10, 1);

/** Years events are drawn from: the whole of the range. */
export const FIRST_YEAR = 2022;
export const LAST_YEAR = 2027;

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** 00:00 UTC of the last Sunday of a month (0-based). */
function lastSunday(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0);
  return lastDay - new Date(lastDay).getUTCDay() * DAY_MS;
}

/** EU summer time (also the UK's): from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October. */
function isEuSummerTime(utcMs: number): boolean {
  const year = new Date(utcMs).getUTCFullYear();
  return utcMs >= lastSunday(year, 2) + HOUR_MS && utcMs < lastSunday(year, 9) + HOUR_MS;
}

/** The UTC instant of a local wall-clock time on a day given as 00:00 UTC of that date. */
export function localToUtc(dayMs: number, minuteOfDay: number, utcOffsetHours: number): number {
  const standard = dayMs + minuteOfDay * 60_000 - utcOffsetHours * HOUR_MS;
  return isEuSummerTime(standard) ? standard - HOUR_MS : standard;
}

/** Easter Sunday (anonymous Gregorian algorithm), as 00:00 UTC of that date. */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

function weekday(dayMs: number): number {
  return new Date(dayMs).getUTCDay();
}

/** Moves forward (0-6 days) to the given weekday. */
export function forwardTo(dayMs: number, target: number): number {
  return dayMs + ((target - weekday(dayMs) + 7) % 7) * DAY_MS;
}
