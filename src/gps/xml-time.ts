/** The times GPX and TCX files write (xsd:dateTime), read strictly, and the points made of them. */
import { xmlNumber } from '../xml/walk.js';
import type { TrackPoint } from './types.js';

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An xsd:dateTime as epoch ms. Strict on purpose: `Date.parse` also accepts local-time formats such as
 * `03-OCT-10 16:01:13`, which would shift a route by the server's time zone. A time without a zone is taken as UTC,
 * as GPX requires and as every TCX producer writes.
 */
export function parseXmlTime(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const plain = plainTime(trimmed);
  if (plain !== null) return plain;
  const m = ISO_TIME.exec(trimmed);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  return checkedTime(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), frac, zone);
}

/**
 * The form nearly every point of every file has, `2024-05-01T08:00:00Z` (or without the `Z`), read without a pattern:
 * this runs once per point. `null` for any other form, which the pattern then reads.
 */
function plainTime(t: string): number | undefined | null {
  const n = t.length;
  if (n !== 19 && !(n === 20 && (t.charCodeAt(19) | 0x20) === 0x7a)) return null;
  if (t.charCodeAt(4) !== 0x2d || t.charCodeAt(7) !== 0x2d || (t.charCodeAt(10) | 0x20) !== 0x74) return null;
  if (t.charCodeAt(13) !== 0x3a || t.charCodeAt(16) !== 0x3a) return null;
  const year = digits(t, 0, 4);
  const month = digits(t, 5, 2);
  const day = digits(t, 8, 2);
  const hour = digits(t, 11, 2);
  const minute = digits(t, 14, 2);
  const second = digits(t, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null;
  return checkedTime(year, month, day, hour, minute, second, undefined, undefined);
}

/** The decimal number in `t[from, from + count)`, or -1 when a character there is not an ASCII digit. */
function digits(t: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const d = t.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

function checkedTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  frac: string | undefined,
  zone: string | undefined,
): number | undefined {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const ms = frac === undefined ? 0 : Math.round(Number(`0.${frac}`) * 1000);
  // `Date.UTC` reads years 0-99 as 1900-1999, so only those take the slower way; this runs once per point of a track.
  let time: number;
  if (year >= 100) {
    time = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  } else {
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    date.setUTCHours(hour, minute, second, ms);
    time = date.getTime();
  }
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const zoneDigits = zone.slice(1).replace(':', '');
    const zh = Number(zoneDigits.slice(0, 2));
    const zm = Number(zoneDigits.slice(2, 4));
    if (zh > 14 || zm > 59) return undefined;
    offsetMinutes = sign * (zh * 60 + zm);
  }
  return time - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * The point a GPX or TCX trackpoint's texts give, or undefined when it has no time or no valid position: such a point
 * cannot be placed on a map at a moment of the race.
 */
export function xmlTrackPoint(
  timeText: string | undefined,
  latText: string | undefined,
  lngText: string | undefined,
  eleText: string | undefined,
): TrackPoint | undefined {
  const time = parseXmlTime(timeText);
  const lat = xmlNumber(latText);
  const lng = xmlNumber(lngText);
  if (time === undefined || lat === undefined || lng === undefined) return undefined;
  if (lat < -90 || lat > 90 || lng < -180 || lng > 180) return undefined;
  const ele = xmlNumber(eleText);
  return ele === undefined ? { time, lat, lng } : { time, lat, lng, ele };
}
