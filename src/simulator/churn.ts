/**
 * The churn (`churn` option, `--churn R`): while the simulated clock is advanced, the world changes the way the
 * service's does. Per simulated day a share R of the events within the dataset's span is changed (a class added,
 * renamed or removed, dates moved by a day, published, map and courses made valid, renamed slightly), about R/10 as
 * many events appear and about R/50 are deleted.
 *
 * What happens is a function of the seed and of the clock's advances only, never of the wall clock: day k of the
 * advance axis (the sum of every advance, `SimClock.offsetMs`) has its plan drawn from its own stream, each action at a
 * whole second of that day, and an advance carries out the actions it passes, in order. So the same seed and the same
 * advances give the same changes, however the advances are split. Each change is stamped with the simulated time it
 * happened at: inside the advanced interval, never after the clock.
 */
import type { ClockAdvance } from './clock.js';
import { DAY_MS } from './dataset/calendar.js';
import { buildEvent } from './dataset/generate.js';
import type { Discipline } from './dataset/profiles/profile.js';
import { PROFILES } from './dataset/profiles/registry.js';
import { buildSeries, type Series } from './dataset/series.js';
import type { SimEvent } from './model.js';
import { Random } from './random.js';
import type { SimState } from './state.js';
import type { ParsedEventChange } from './world-input.js';
import type { SimWorld } from './world.js';

const SALT = 0xc4a2;
const WEEK_MS = 7 * DAY_MS;
const DISCIPLINES: readonly Discipline[] = ['Long', 'Middle', 'Sprint', 'Night', 'Relay'];

interface Action {
  /** On the advance axis: day start plus 1 to 86,400 s, so that day k covers (k days, k + 1 days]. */
  offsetMs: number;
  kind: 'change' | 'create' | 'delete';
  /** Its place in the day's plan: names the action's own random stream. */
  index: number;
}

/** x as a whole number, rounded up with probability of its fraction, so that small rates still happen on average. */
function stochasticRound(r: Random, x: number): number {
  const whole = Math.floor(x);
  return whole + (r.chance(x - whole) ? 1 : 0);
}

export class Churn {
  readonly #world: SimWorld;
  readonly #state: SimState;
  #rate: number;
  readonly #seed: number;
  /** The dataset's span at start: events are changed, and appear, within it. */
  readonly #spanStart: number;
  readonly #spanEnd: number;
  /** The number of events within the span at start: the rates are shares of it. */
  readonly #base: number;
  /** Every classic taken, so that a new event is never a second O-Ringen in one year. */
  readonly #noClassics = new Set<string>();

  constructor(world: SimWorld, state: SimState, options: { rate: number; seed: number }) {
    this.#world = world;
    this.#state = state;
    this.#rate = options.rate;
    this.#seed = options.seed;
    let first = Infinity;
    let last = -Infinity;
    for (const e of state.dataset.events) {
      first = Math.min(first, e.startMs);
      last = Math.max(last, e.endMs);
    }
    this.#spanStart = first;
    this.#spanEnd = last;
    this.#base = state.dataset.events.length;
    for (const p of PROFILES) {
      for (const c of p.classics) {
        for (let y = new Date(first).getUTCFullYear() - 1; y <= new Date(last).getUTCFullYear() + 1; y++) {
          this.#noClassics.add(`${c.name}|${y}`);
        }
      }
    }
  }

  /**
   * The share of events changed per simulated day. It may be changed while the simulator runs (the control endpoint
   * `PUT /_simulator/churn`): the days advanced after that follow the new rate, for the same seed the same way.
   */
  get rate(): number {
    return this.#rate;
  }

  set rate(rate: number) {
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`churn must be within 0..1, got ${rate}`);
    this.#rate = rate;
  }

  /** Carries out every action the advance passes. */
  advance(move: ClockAdvance): void {
    if (this.#rate === 0 || this.#base === 0) return;
    const lastDay = Math.floor(move.toOffsetMs / DAY_MS);
    for (let day = Math.floor(move.fromOffsetMs / DAY_MS); day <= lastDay; day++) {
      for (const action of this.#plan(day)) {
        if (action.offsetMs <= move.fromOffsetMs || action.offsetMs > move.toOffsetMs) continue;
        const atMs = move.fromMs + (action.offsetMs - move.fromOffsetMs);
        const r = Random.derive(this.#seed, SALT, day, action.index);
        if (action.kind === 'change') this.#change(r, atMs);
        else if (action.kind === 'create') this.#create(r, atMs);
        else this.#delete(r, atMs);
      }
    }
  }

  #plan(day: number): Action[] {
    const r = Random.derive(this.#seed, SALT, day);
    const counts = {
      change: stochasticRound(r, this.#rate * this.#base),
      create: stochasticRound(r, (this.#rate / 10) * this.#base),
      delete: stochasticRound(r, (this.#rate / 50) * this.#base),
    };
    const actions: Action[] = [];
    for (const kind of ['change', 'create', 'delete'] as const) {
      for (let i = 0; i < counts[kind]; i++) {
        actions.push({ offsetMs: day * DAY_MS + r.int(1, 86_400) * 1000, kind, index: actions.length });
      }
    }
    return actions.sort((a, b) => a.offsetMs - b.offsetMs || a.index - b.index);
  }

  #inSpan(e: SimEvent): boolean {
    return e.startMs >= this.#spanStart && e.endMs <= this.#spanEnd;
  }

  /** A random event within the span that `wanted` accepts, after a few tries; undefined when none turned up. */
  #pick(r: Random, wanted: (e: SimEvent) => boolean = () => true): SimEvent | undefined {
    const events = this.#state.dataset.events;
    for (let i = 0; i < 20 && events.length > 0; i++) {
      const e = events[r.int(0, events.length - 1)]!;
      if (this.#inSpan(e) && wanted(e)) return e;
    }
    return undefined;
  }

  #change(r: Random, atMs: number): void {
    const event = this.#pick(r);
    if (!event) return;
    const upcoming = event.startMs > atMs;
    const kinds: Array<{ weight: number; make: () => [ParsedEventChange, string] | undefined }> = [
      { weight: event.isPublished ? 0 : 3, make: () => publish(r, event) },
      { weight: event.hasValidMapAndCourses ? 0 : 3, make: () => makeValid(event) },
      { weight: 2, make: () => addClass(r, event) },
      { weight: event.classes.length > 0 ? 2 : 0, make: () => renameClass(r, event) },
      { weight: event.classes.length > 1 ? 1 : 0, make: () => removeClass(r, event) },
      { weight: upcoming ? 1 : 0, make: () => this.#moveDay(r, event) },
      { weight: 1, make: () => renameEvent(event) },
    ];
    const made = r.weighted(kinds, (k) => k.weight).make();
    if (made) this.#world.update(event.id, made[0], atMs, 'churn', made[1]);
  }

  #moveDay(r: Random, event: SimEvent): [ParsedEventChange, string] | undefined {
    for (const days of r.chance(0.5) ? [1, -1] : [-1, 1]) {
      const start = event.startMs + days * DAY_MS;
      if (start < this.#spanStart || event.endMs + days * DAY_MS > this.#spanEnd) continue;
      return [{ start }, `moved ${days > 0 ? 'a day later' : 'a day earlier'}`];
    }
    return undefined;
  }

  /** A new event, or the days of a multi-day one, announced some weeks ahead, as organisers do. */
  #create(r: Random, atMs: number): void {
    const model = this.#pick(r);
    const profile = PROFILES.find((p) => p.code === model?.countryCode) ?? r.weighted(PROFILES, (p) => p.weight);
    const drawn = buildSeries(r, profile, this.#noClassics);
    const first = drawn.stages[0]!;
    const length = drawn.stages[drawn.stages.length - 1]!.endMs - first.startMs;
    let lo = Math.max(this.#spanStart, atMs + WEEK_MS);
    let hi = Math.min(this.#spanEnd - length, atMs + 26 * WEEK_MS);
    if (hi < lo) [lo, hi] = [this.#spanStart, this.#spanEnd - length];
    // By whole weeks, so that weekday and local start time stay what the profile chose.
    let shift = Math.round((r.float(lo, Math.max(lo, hi)) - first.startMs) / WEEK_MS) * WEEK_MS;
    while (first.startMs + shift + length > this.#spanEnd) shift -= WEEK_MS;
    while (first.startMs + shift < this.#spanStart) shift += WEEK_MS;
    const fromYear = String(new Date(first.startMs).getUTCFullYear());
    const toYear = String(new Date(first.startMs + shift).getUTCFullYear());
    const series: Series = {
      ...drawn,
      baseName: drawn.baseName.replace(fromYear, toYear),
      stages: drawn.stages.map((s) => ({ ...s, startMs: s.startMs + shift, endMs: s.endMs + shift })),
    };
    series.stages.forEach((stage, index) => {
      const id = this.#world.nextEventId();
      const firstClassId = this.#world.nextClassId();
      for (let i = 1; i < series.classes.length; i++) this.#world.nextClassId();
      const event = buildEvent(r, this.#seed, series, stage, index, id, firstClassId);
      // Just entered: no entries, courses still secret (they exist, and show once published and valid).
      event.isPublished = false;
      event.isSearchable = false;
      event.hasValidMapAndCourses = false;
      event.participantCount = 0;
      this.#world.add(event, atMs, 'churn', 'announced');
    });
  }

  /** Mostly an announced event that is withdrawn; now and then a duplicate of any kind. */
  #delete(r: Random, atMs: number): void {
    const event = this.#pick(r, (e) => !e.isPublished && e.participantCount === 0) ?? this.#pick(r);
    if (event) this.#world.remove(event.id, atMs, 'churn', event.isPublished ? 'duplicate removed' : 'withdrawn');
  }
}

function publish(r: Random, event: SimEvent): [ParsedEventChange, string] {
  const searchable = event.hasValidMapAndCourses && r.chance(0.95);
  return [{ isPublished: true, ...(searchable ? { isSearchable: true } : {}) }, 'published'];
}

function makeValid(event: SimEvent): [ParsedEventChange, string] {
  return [
    { hasValidMapAndCourses: true, ...(event.isPublished ? { isSearchable: true } : {}) },
    'map and courses made valid',
  ];
}

function addClass(r: Random, event: SimEvent): [ParsedEventChange, string] | undefined {
  const taken = new Set(event.classes.map((c) => c.name));
  const profile = PROFILES.find((p) => p.code === event.countryCode);
  const given = event.properties.find((p) => p.key === 'discipline')?.value;
  const discipline: Discipline = DISCIPLINES.find((d) => d === given) ?? 'Long';
  let pool: string[] = [];
  if (profile) {
    const specs =
      discipline === 'Relay'
        ? profile.relayClasses(r, 'medium', profile.language)
        : profile.individualClasses(r, 'medium', discipline, profile.language);
    pool = specs.map((s) => s.name).filter((n) => !taken.has(n));
  }
  let name = pool.length > 0 ? r.pick(pool) : undefined;
  for (let n = 1; name === undefined; n++) if (!taken.has(`Open ${n}`)) name = `Open ${n}`;
  return [{ addClasses: [{ name }] }, `class '${name}' added`];
}

/**
 * How organisers retype a class name: `H21` <-> `H 21`, `Öppen 1` <-> `Öppen1`; other names change case (`Orange`
 * -> `ORANGE` -> `Orange`). What a class mapping must see through.
 */
function classVariant(name: string): string {
  const m = /^(\p{L}+)( ?)(\d+)(.*)$/u.exec(name);
  if (m) return `${m[1]}${m[2] ? '' : ' '}${m[3]}${m[4]}`;
  const upper = name.toLocaleUpperCase('en-US');
  return name !== upper ? upper : `${name.slice(0, 1)}${name.slice(1).toLocaleLowerCase('en-US')}`;
}

function renameClass(r: Random, event: SimEvent): [ParsedEventChange, string] | undefined {
  const taken = new Set(event.classes.map((c) => c.name));
  const start = r.int(0, event.classes.length - 1);
  for (let i = 0; i < event.classes.length; i++) {
    const cls = event.classes[(start + i) % event.classes.length]!;
    const name = classVariant(cls.name);
    if (!taken.has(name)) {
      return [{ renameClasses: [{ id: cls.id, name }] }, `class ${cls.id} '${cls.name}' renamed '${name}'`];
    }
  }
  return undefined;
}

function removeClass(r: Random, event: SimEvent): [ParsedEventChange, string] {
  const cls = r.pick(event.classes);
  return [{ removeClasses: [cls.id] }, `class ${cls.id} '${cls.name}' removed`];
}

/** A year in the name added or taken away (`Vårsprinten` <-> `Vårsprinten 2026`), before a stage label if any. */
function renameEvent(event: SimEvent): [ParsedEventChange, string] {
  const staged = event.properties.some((p) => p.key === 'stage') && event.name.includes(', ');
  const cut = staged ? event.name.lastIndexOf(', ') : event.name.length;
  const base = event.name.slice(0, cut);
  const rest = event.name.slice(cut);
  const year = new Date(event.startMs).getUTCFullYear();
  const renamed = / \d{4}$/.test(base) ? base.replace(/ \d{4}$/, '') : `${base} ${year}`;
  return [{ name: `${renamed}${rest}` }, `renamed '${renamed}${rest}'`];
}
