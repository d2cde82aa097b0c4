/**
 * The event part of the event-and-classes reader: the event's ids, name, dates, organisers and their countries, its
 * races with their dates and arena positions, and the earliest competitor start (the event's day when the export
 * leaves its date out). It handles the contexts of the first run in `contexts.ts`.
 */
import type { EventInfo, RaceInfo } from '../model.js';
import { DECIMAL } from '../numbers.js';
import { parseAttributes } from '../../xml/tokenizer.js';
import {
  COMPETITOR_START,
  END_DATE,
  END_TIME,
  EVENT,
  EVENT_ID,
  EVENT_NAME,
  ORGANISER,
  ORGANISER_CLUB,
  ORGANISER_COUNTRY,
  ORGANISER_NAME,
  ORGANISER_SHORT,
  RACE,
  RACE_DATE,
  RACE_NAME,
  RACE_NUMBER,
  RACE_POSITION,
  RACE_TIME,
  SKIP,
  START_DATE,
  START_TIME,
} from './contexts.js';

const COUNTRY_CODE = /^[A-Za-z]{3}$/;

export class EventPart {
  event: EventInfo | undefined;
  readonly races: RaceInfo[] = [];
  /** The earliest competitor start time met, as written, and as epoch milliseconds to compare. */
  firstStart: string | undefined;
  private firstStartMs: number | undefined;

  private readonly eventStart = { date: '', time: '' };
  private readonly eventEnd = { date: '', time: '' };
  private race: RaceInfo & { date?: string; time?: string } = {};
  private organiserName: string | undefined;
  private organiserShort: string | undefined;
  /** The `type` (3.0) or `idManager`/`type` (2.0.3) of the event id being read. */
  private eventIdType: string | undefined;
  private readonly countries = new Set<string>();

  /** Starts what an element begins; a second event of an event list is skipped. */
  enter(context: number, attributes: string): number {
    switch (context) {
      case EVENT:
        // An event list: the first event only.
        if (this.event !== undefined) return SKIP;
        this.event = { name: '', organisers: [] };
        return context;
      case EVENT_ID: {
        // 2.0.3: idManager names who issued the id (`SWE`), as 3.0's type does; its type is only a scope (`nat`).
        const a = attributes === '' ? undefined : parseAttributes(attributes);
        this.eventIdType = (a?.['idManager'] ?? a?.['type'])?.trim() || undefined;
        return context;
      }
      case ORGANISER_COUNTRY: {
        if (attributes === '') return context;
        const a = parseAttributes(attributes);
        const code = (a['code'] ?? a['value'])?.trim();
        if (code !== undefined && COUNTRY_CODE.test(code)) this.countries.add(code.toUpperCase());
        return context;
      }
      case RACE:
        this.race = {};
        return context;
      case RACE_POSITION: {
        const position = degrees(attributes);
        if (position !== undefined) this.race.position = position;
        return context;
      }
      case ORGANISER_CLUB:
      case ORGANISER:
        this.organiserName = undefined;
        this.organiserShort = undefined;
        return context;
      default:
        return context;
    }
  }

  /** Ends an element; `value` is its text, trimmed, for the contexts whose text is read. */
  leave(context: number, value: string): void {
    switch (context) {
      case EVENT_ID:
        if (this.event && value !== '') {
          this.event.id ??= value;
          const externalId = this.eventIdType === undefined ? { id: value } : { type: this.eventIdType, id: value };
          (this.event.externalIds ??= []).push(externalId);
        }
        return;
      case EVENT_NAME:
        if (this.event) this.event.name = value;
        return;
      case COMPETITOR_START: {
        // Only a full date-time (3.0); a 2.0.3 clock time alone says nothing of the day.
        const ms = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
        if (!Number.isNaN(ms) && (this.firstStartMs === undefined || ms < this.firstStartMs)) {
          this.firstStartMs = ms;
          this.firstStart = value;
        }
        return;
      }
      case START_DATE:
        this.eventStart.date = value;
        return;
      case START_TIME:
        this.eventStart.time = value;
        return;
      case END_DATE:
        this.eventEnd.date = value;
        return;
      case END_TIME:
        this.eventEnd.time = value;
        return;
      case ORGANISER_NAME:
        this.organiserName = value;
        return;
      case ORGANISER_SHORT:
        this.organiserShort = value;
        return;
      case ORGANISER_CLUB:
      case ORGANISER: {
        const name = this.organiserName || this.organiserShort;
        if (name && this.event) this.event.organisers.push(name);
        this.organiserName = undefined;
        this.organiserShort = undefined;
        return;
      }
      case RACE_NUMBER: {
        const n = /^\d+$/.test(value) ? Number(value) : undefined;
        if (n !== undefined) this.race.number = n;
        return;
      }
      case RACE_NAME:
        if (value !== '') this.race.name = value;
        return;
      case RACE_DATE:
        this.race.date = value;
        return;
      case RACE_TIME:
        this.race.time = value;
        return;
      case RACE: {
        const { date, time, ...race } = this.race;
        const start = dateTime(date, time);
        this.races.push(start === undefined ? race : { ...race, start });
        return;
      }
      case EVENT:
        this.finishEvent();
        return;
      default:
        return;
    }
  }

  private finishEvent(): void {
    const event = this.event;
    if (event === undefined) return;
    if (this.countries.size > 0) event.countries = [...this.countries];
    const start = dateTime(this.eventStart.date, this.eventStart.time);
    const end = dateTime(this.eventEnd.date, this.eventEnd.time);
    if (start !== undefined) event.start = start;
    if (end !== undefined) event.end = end;
  }
}

/** `Date` and an optional time as one ISO 8601 string, as written (offset kept, none invented). */
function dateTime(date: string | undefined, time: string | undefined): string | undefined {
  if (date === undefined || date === '') return undefined;
  return time === undefined || time === '' ? date : `${date}T${time}`;
}

/** A GeoPosition's `lat`/`lng` as degrees, or `undefined` when either is missing, not a number or out of range. */
function degrees(attributes: string): { lat: number; lng: number } | undefined {
  const a = parseAttributes(attributes);
  const lat = a['lat']?.trim();
  const lng = a['lng']?.trim();
  if (lat === undefined || lng === undefined || !DECIMAL.test(lat) || !DECIMAL.test(lng)) return undefined;
  const position = { lat: Number(lat), lng: Number(lng) };
  // Condes writes grid eastings and northings here: out of range, so not degrees.
  if (Math.abs(position.lat) > 90 || Math.abs(position.lng) > 180) return undefined;
  return position;
}
