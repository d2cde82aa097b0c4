/**
 * The world changes: events are created, changed and deleted while the simulator runs, by a test (the library calls
 * below, or the control endpoints that call them) or by the churn (`churn.ts`). Every change stamps modifiedTime with
 * the simulated clock, in whole seconds as the service shows it, so that several events can share a second.
 *
 * A changed event is a new object, never the old one edited: caches keyed by the event object (records, search text,
 * course XML) then never answer from what it was, and a caller's dataset is never written to. The copy keeps the lazy
 * `courses` property lazy (its descriptor is copied, not its value).
 */
import { issueAt, zodIssues } from '../core/issues.js';
import { formatContractDatetime } from '../resources/params.js';
import { ValidationError, type Issue } from '../errors.js';
import type { RaceCourseData } from '../iof/model.js';
import type { SimClass, SimDataset, SimEvent } from './model.js';
import { wholeSeconds } from './search.js';
import type { SimState } from './state.js';
import {
  eventChangeSchema,
  eventInputSchema,
  type ParsedEventChange,
  type SimEventChange,
  type SimEventInput,
} from './world-input.js';

/** Who made a change: a test (library call or control endpoint) or the churn. */
export type SimChangeSource = 'control' | 'churn';

/** One entry of the world's change log (`world.changes()`, `GET /_simulator/changes`). */
export interface SimChange {
  /** 1, 2, 3 ...: the order of changes in this run. */
  seq: number;
  /** The modifiedTime the change stamped (yyyy-mm-ddThh:mm:ssZ); for a deletion, when it happened. */
  at: string;
  eventId: number;
  kind: 'created' | 'changed' | 'deleted';
  /**
   * What changed: `name`, `dates`, `classes`, `isPublished`, `isSearchable`, `hasValidMapAndCourses`, `properties`,
   * `participantCount`, `courses` (an import). Empty for a creation, a deletion, and a change that only moved modifiedTime.
   */
  fields: string[];
  source: SimChangeSource;
  /** In words, for a human reading the log (`class 700123 'H21' renamed 'H 21'`). */
  note?: string;
}

/** The log keeps the latest changes only: a year of churn over 10,000 events is millions of them. */
const MAX_LOG = 100_000;
const UNKNOWN_FIELD = 'is not a field of this request (see README, simulator controls)';

/** A shallow copy that keeps accessors (the lazy `courses`) as they are. */
function copyOf(event: SimEvent): SimEvent {
  return Object.defineProperties({}, Object.getOwnPropertyDescriptors(event)) as SimEvent;
}

/**
 * The dataset with no event modified after `nowMs` (the clock at start): the service never shows a modification in
 * its future. Generated data never is (it ends on its "today", before any clock this runs on); a dataset file may be.
 */
export function modifiedNotAfter(dataset: SimDataset, nowMs: number): SimDataset {
  const limit = wholeSeconds(nowMs);
  if (!dataset.events.some((e) => e.modifiedMs > limit)) return dataset;
  const events = dataset.events.map((e) => {
    if (e.modifiedMs <= limit) return e;
    const copy = copyOf(e);
    copy.modifiedMs = limit;
    return copy;
  });
  return { ...dataset, events };
}

function classOf(input: { name: string; shortName?: string | undefined }, id: number): SimClass {
  return input.shortName === undefined
    ? { id, name: input.name }
    : { id, name: input.name, shortName: input.shortName };
}

function duplicateNames(classes: readonly SimClass[], path: string): Issue[] {
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const c of classes) {
    if (seen.has(c.name))
      issues.push({ path, code: 'duplicate', message: `the event would have two classes '${c.name}'` });
    seen.add(c.name);
  }
  return issues;
}

export class SimWorld {
  readonly #state: SimState;
  readonly #log: SimChange[] = [];
  #seq = 0;
  #dropped = 0;
  #maxEventId = 0;
  #maxClassId = 0;

  constructor(state: SimState) {
    this.#state = state;
    for (const e of state.dataset.events) {
      this.#maxEventId = Math.max(this.#maxEventId, e.id);
      for (const c of e.classes) this.#maxClassId = Math.max(this.#maxClassId, c.id);
    }
  }

  /** Creates an event stamped now; throws `ValidationError` (with `issues`) for input the service would refuse. */
  createEvent(input: SimEventInput): SimEvent {
    const parsed = eventInputSchema.safeParse(input, { reportInput: true });
    if (!parsed.success) throw new ValidationError('Invalid event', zodIssues(parsed.error, UNKNOWN_FIELD));
    const p = parsed.data;
    const issues: Issue[] = [];
    const country = this.#state.countriesByCode.get(p.countryCode.toUpperCase());
    if (!country)
      issues.push({ path: 'countryCode', code: 'unknown', message: `no country has the code '${p.countryCode}'` });
    if (p.id !== undefined && this.#state.eventsById.has(p.id))
      issues.push({ path: 'id', code: 'taken', message: `event ${p.id} exists already` });
    if (p.end < p.start) issues.push({ path: 'end', code: 'range', message: 'is before start' });
    if (p.isSearchable && !p.hasValidMapAndCourses) issues.push(searchableIssue());
    issues.push(
      ...duplicateNames(
        (p.classes ?? []).map((c) => classOf(c, 0)),
        'classes',
      ),
    );
    if (issues.length > 0) throw new ValidationError('Invalid event', issues);
    // Ids only once the event holds: a refused one uses none.
    const classes = (p.classes ?? []).map((c) => classOf(c, this.nextClassId()));
    const event: SimEvent = {
      id: p.id ?? this.nextEventId(),
      name: p.name,
      startMs: p.start,
      endMs: p.end,
      organisers: p.organisers.map((name) => ({ name })),
      countryCode: country!.code,
      classes,
      properties: (p.properties ?? []).map((x) => ({ key: x.key, value: x.value })),
      participantCount: p.participantCount ?? 0,
      isSearchable: p.isSearchable ?? false,
      isPublished: p.isPublished ?? false,
      hasValidMapAndCourses: p.hasValidMapAndCourses ?? false,
      modifiedMs: 0,
    };
    if (p.position) event.position = { latitude: p.position.latitude, longitude: p.position.longitude };
    this.#maxEventId = Math.max(this.#maxEventId, event.id);
    return this.add(event, this.#state.clock.now(), 'control');
  }

  /**
   * Changes an event, stamped now, and answers it as it is after the change; undefined when no event has the id.
   * Throws `ValidationError` (with `issues`) for a change the service would refuse.
   */
  changeEvent(id: number, change: SimEventChange): SimEvent | undefined {
    const parsed = eventChangeSchema.safeParse(change, { reportInput: true });
    if (!parsed.success) throw new ValidationError('Invalid event change', zodIssues(parsed.error, UNKNOWN_FIELD));
    return this.update(id, parsed.data, this.#state.clock.now(), 'control');
  }

  /** Deletes an event: GET /events/{id} answers 404 and no search finds it. False when no event has the id. */
  deleteEvent(id: number): boolean {
    return this.remove(id, this.#state.clock.now(), 'control');
  }

  /** The change log, oldest first (the latest 100,000 changes). */
  changes(): readonly SimChange[] {
    return this.#log;
  }

  /** How many of the oldest changes the log no longer holds. */
  get droppedChanges(): number {
    return this.#dropped;
  }

  clearChanges(): void {
    this.#dropped += this.#log.length;
    this.#log.length = 0;
  }

  /** An event id no event ever had in this run, above every one so far (ids grow with creation, as in the service). */
  nextEventId(): number {
    return ++this.#maxEventId;
  }

  /** A class id unique across the dataset, never used before in this run. */
  nextClassId(): number {
    return ++this.#maxClassId;
  }

  /**
   * Adds a complete event (ids from `nextEventId`/`nextClassId`), stamping modifiedTime with `atMs`. This and the two
   * below take a time of their own, for the churn, which stamps changes inside an advance; tests call the three above.
   */
  add(event: SimEvent, atMs: number, source: SimChangeSource, note?: string): SimEvent {
    const state = this.#state;
    event.modifiedMs = wholeSeconds(atMs);
    state.dataset.events.push(event);
    state.eventsById.set(event.id, event);
    for (const cls of event.classes) state.classesById.set(cls.id, { event, cls });
    state.countriesWithEvents.add(event.countryCode);
    state.eventIndex.invalidate();
    this.#record(event.id, 'created', [], atMs, source, note);
    return event;
  }

  /** Applies a checked change, stamped with `atMs`; undefined when no event has the id. */
  update(
    id: number,
    change: ParsedEventChange,
    atMs: number,
    source: SimChangeSource,
    note?: string,
  ): SimEvent | undefined {
    const old = this.#state.eventsById.get(id);
    if (!old) return undefined;
    const next = copyOf(old);
    const issues: Issue[] = [];
    if (change.name !== undefined) next.name = change.name;
    if (change.start !== undefined) {
      next.startMs = change.start;
      next.endMs = change.end ?? change.start + (old.endMs - old.startMs);
    } else if (change.end !== undefined) next.endMs = change.end;
    if (next.endMs < next.startMs) issues.push({ path: 'end', code: 'range', message: 'is before start' });
    next.classes = this.#changedClasses(old, change, issues);
    if (change.isPublished !== undefined) next.isPublished = change.isPublished;
    if (change.hasValidMapAndCourses !== undefined) next.hasValidMapAndCourses = change.hasValidMapAndCourses;
    if (change.isSearchable !== undefined) next.isSearchable = change.isSearchable;
    // The service takes events without a valid map and courses off the search: not to be asked for, but a consequence.
    if (next.isSearchable && !next.hasValidMapAndCourses) {
      if (change.isSearchable) issues.push(searchableIssue());
      next.isSearchable = false;
    }
    if (change.properties) next.properties = change.properties.map((x) => ({ key: x.key, value: x.value }));
    if (change.participantCount !== undefined) next.participantCount = change.participantCount;
    if (issues.length > 0) throw new ValidationError(`Invalid change of event ${id}`, issues);

    return this.#replace(old, next, changedFields(old, next), atMs, source, note);
  }

  /**
   * Gives an event new courses (an importable event imported into it), valid map and courses from now on, stamped
   * now; undefined when no event has the id. Class assignments name the event's class ids.
   */
  setCourses(id: number, courses: RaceCourseData): SimEvent | undefined {
    const old = this.#state.eventsById.get(id);
    if (!old) return undefined;
    const next = copyOf(old);
    // A property of its own, replacing a lazy one the copy may carry.
    Object.defineProperty(next, 'courses', { value: courses, enumerable: true, writable: true, configurable: true });
    next.hasValidMapAndCourses = true;
    const fields = old.hasValidMapAndCourses ? ['courses'] : ['courses', 'hasValidMapAndCourses'];
    return this.#replace(old, next, fields, this.#state.clock.now(), 'control', 'courses imported');
  }

  #replace(
    old: SimEvent,
    next: SimEvent,
    fields: string[],
    atMs: number,
    source: SimChangeSource,
    note: string | undefined,
  ): SimEvent {
    next.modifiedMs = wholeSeconds(atMs);
    const state = this.#state;
    const at = state.dataset.events.indexOf(old);
    state.dataset.events[at] = next;
    state.eventsById.set(next.id, next);
    for (const cls of old.classes) state.classesById.delete(cls.id);
    for (const cls of next.classes) state.classesById.set(cls.id, { event: next, cls });
    state.eventIndex.invalidate();
    this.#record(next.id, 'changed', fields, atMs, source, note);
    return next;
  }

  /** Deletes an event at `atMs`; false when no event has the id. */
  remove(id: number, atMs: number, source: SimChangeSource, note?: string): boolean {
    const state = this.#state;
    const event = state.eventsById.get(id);
    if (!event) return false;
    state.dataset.events.splice(state.dataset.events.indexOf(event), 1);
    state.eventsById.delete(id);
    for (const cls of event.classes) state.classesById.delete(cls.id);
    if (!state.dataset.events.some((e) => e.countryCode === event.countryCode)) {
      state.countriesWithEvents.delete(event.countryCode);
    }
    state.eventIndex.invalidate();
    this.#record(id, 'deleted', [], atMs, source, note);
    return true;
  }

  #changedClasses(old: SimEvent, change: ParsedEventChange, issues: Issue[]): SimClass[] {
    if (!change.removeClasses && !change.renameClasses && !change.addClasses) return old.classes;
    const own = new Set(old.classes.map((c) => c.id));
    const removed = new Set(change.removeClasses);
    change.removeClasses?.forEach((id, i) => {
      if (!own.has(id)) issues.push(issueAt(['removeClasses', i], 'unknown', `event ${old.id} has no class ${id}`));
    });
    const names = new Map<number, string>();
    change.renameClasses?.forEach((r, i) => {
      if (!own.has(r.id) || removed.has(r.id)) {
        const why = own.has(r.id) ? `class ${r.id} is also removed` : `event ${old.id} has no class ${r.id}`;
        issues.push(issueAt(['renameClasses', i, 'id'], 'unknown', why));
      }
      names.set(r.id, r.name);
    });
    const kept = old.classes
      .filter((c) => !removed.has(c.id))
      .map((c) => (names.has(c.id) ? { ...c, name: names.get(c.id)! } : c));
    // Ids only once the change holds: a refused change uses none.
    if (issues.length > 0) return kept;
    const added = (change.addClasses ?? []).map((c) => classOf(c, 0));
    issues.push(...duplicateNames([...kept, ...added], 'addClasses'));
    if (issues.length > 0) return kept;
    return [...kept, ...added.map((c) => ({ ...c, id: this.nextClassId() }))];
  }

  #record(
    eventId: number,
    kind: SimChange['kind'],
    fields: string[],
    atMs: number,
    source: SimChangeSource,
    note: string | undefined,
  ): void {
    const entry: SimChange = { seq: ++this.#seq, at: formatContractDatetime(atMs), eventId, kind, fields, source };
    if (note !== undefined) entry.note = note;
    this.#log.push(entry);
    if (this.#log.length > MAX_LOG) {
      const drop = this.#log.length - MAX_LOG;
      this.#log.splice(0, drop);
      this.#dropped += drop;
    }
  }
}

function searchableIssue(): Issue {
  return {
    path: 'isSearchable',
    code: 'rule',
    message: 'an event without a valid map and courses is not searchable (set hasValidMapAndCourses too)',
  };
}

function changedFields(a: SimEvent, b: SimEvent): string[] {
  const fields: string[] = [];
  if (a.name !== b.name) fields.push('name');
  if (a.startMs !== b.startMs || a.endMs !== b.endMs) fields.push('dates');
  if (JSON.stringify(a.classes) !== JSON.stringify(b.classes)) fields.push('classes');
  for (const flag of ['isPublished', 'isSearchable', 'hasValidMapAndCourses'] as const) {
    if (a[flag] !== b[flag]) fields.push(flag);
  }
  if (JSON.stringify(a.properties) !== JSON.stringify(b.properties)) fields.push('properties');
  if (a.participantCount !== b.participantCount) fields.push('participantCount');
  return fields;
}
