/** The times GPX and TCX files write (xsd:dateTime), read strictly. */

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An xsd:dateTime as epoch ms. Strict on purpose: `Date.parse` also accepts local-time formats such as
 * `03-OCT-10 16:01:13`, which would shift a route by the server's time zone. A time without a zone is taken as UTC,
 * as GPX requires and as every TCX producer writes.
 */
export function parseXmlTime(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = ISO_TIME.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, frac === undefined ? 0 : Math.round(Number(`0.${frac}`) * 1000));
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const zh = Number(digits.slice(0, 2));
    const zm = Number(digits.slice(2, 4));
    if (zh > 14 || zm > 59) return undefined;
    offsetMinutes = sign * (zh * 60 + zm);
  }
  return date.getTime() - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
