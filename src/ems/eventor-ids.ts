/**
 * Eventor event ids in exports. Event systems write the id of the event in its federation's Eventor as `<Id
 * type="...">` with whatever label they chose ("Eventor", "EventorSweden", "Eventor Sweden", "Eventor-NOR", "SOFT",
 * "NOF", "IOF", "orienteering.org"), so the label is read for what it names, not compared to one spelling. Which
 * Eventor matters: each federation's Eventor numbers its events on its own, and the service's lookup by id (observed,
 * not published: `EventorSweden:{eventId}-{race}`) is for Sweden's.
 */
import { foldText } from '../core/fold.js';
import type { EmsEvent } from './source.js';

/**
 * The Eventor installations, by the federation that runs each: Sweden (SOFT, eventor.orientering.se), Norway (NOF,
 * eventor.orientering.no), Australia (Orienteering Australia, eventor.orienteering.asn.au) and the IOF's own
 * (eventor.orienteering.org). Other federations run other systems (Finland IRMA, Czechia ORIS, Switzerland GO2OL,
 * Britain its own): a label naming them is not an Eventor id.
 */
export type EventorInstance = 'SWE' | 'NOR' | 'AUS' | 'IOF';

/**
 * Label words (folded, spaces and punctuation removed) naming a federation or its Eventor's address, and the country
 * words that name one only after "Eventor" ("Eventor-NOR", "EventorSE"): a bare "SWE" is 2.0.3's `idManager` of
 * any national id (a club's results system numbers its events too), not Eventor's.
 */
const FEDERATIONS: ReadonlyArray<readonly [EventorInstance, readonly string[], readonly string[]]> = [
  ['SWE', ['soft', 'svenskaorienteringsforbundet', 'orienteringse', 'eventororienteringse'], ['sweden', 'swe', 'se']],
  ['NOR', ['nof', 'norgesorienteringsforbund', 'orienteringno', 'eventororienteringno'], ['norway', 'nor', 'no']],
  ['AUS', ['orienteeringaustralia', 'orienteeringasnau', 'eventororienteeringasnau'], ['australia', 'aus', 'au', 'oa']],
  ['IOF', ['iof', 'orienteeringorg', 'eventororienteeringorg', 'internationalorienteeringfederation'], ['iof']],
];

/**
 * What an `<Id type>` label says of the id: an Eventor id, of which installation when the label says (`instance`
 * undefined for a bare "Eventor"), or undefined when the label names no Eventor (a club's own system, "MeOS", "nat").
 */
export function eventorLabel(label: string): { instance?: EventorInstance } | undefined {
  const compactLabel = foldText(label).replace(/ /g, '');
  if (compactLabel === '') return undefined;
  const rest = compactLabel.startsWith('eventor') ? compactLabel.slice('eventor'.length) : undefined;
  if (rest === '') return {};
  for (const [instance, names, suffixes] of FEDERATIONS) {
    if (names.includes(compactLabel)) return { instance };
    if (rest !== undefined && (names.includes(rest) || suffixes.includes(rest))) return { instance };
  }
  // "Eventor" with a suffix we do not know ("EventorTest"): still Eventor's, installation unknown.
  return rest !== undefined ? {} : undefined;
}

/** The key an Eventor id takes in `EmsEvent.externalIds`, as the service's properties name it (`eventorId`). */
export const EVENTOR_KEY = 'eventor';

/**
 * The key of the installation beside it (`eventor.swe`), kept so that `eventorIdOf` knows which Eventor numbered the
 * id: the plain `eventor` key is what scoring and portal keys read.
 */
export function eventorInstanceKey(instance: EventorInstance): string {
  return `${EVENTOR_KEY}.${instance.toLowerCase()}`;
}

/** The export's Eventor id and, when the export or its country says, which installation numbered it. */
export function eventorIdOf(ems: EmsEvent): { id: string; instance?: EventorInstance } | undefined {
  const ids = ems.externalIds ?? {};
  for (const [instance] of FEDERATIONS) {
    const id = ids[eventorInstanceKey(instance)];
    if (id !== undefined) return { id, instance };
  }
  const id = ids[EVENTOR_KEY];
  return id === undefined ? undefined : { id };
}

/** Federations' Eventors by the country they are in (the IOF's has none). */
const INSTANCE_COUNTRY: Readonly<Record<string, EventorInstance>> = {
  SWE: 'SWE',
  SE: 'SWE',
  SWEDEN: 'SWE',
  NOR: 'NOR',
  NO: 'NOR',
  NORWAY: 'NOR',
  AUS: 'AUS',
  AU: 'AUS',
  AUSTRALIA: 'AUS',
};

/**
 * The export's Eventor id when it may be Sweden's: labelled Sweden's, or an Eventor the label does not name in an
 * export held in Sweden or of no stated country. The service's `eventorId` property and its lookup by id are
 * Sweden's numbers (observed, not published); Norway's, Australia's and the IOF's Eventors number their events on
 * their own, so their ids are never compared with them.
 */
export function swedishEventorId(ems: EmsEvent): string | undefined {
  const found = eventorIdOf(ems);
  if (!found) return undefined;
  const fromCountry = ems.country === undefined ? undefined : INSTANCE_COUNTRY[ems.country.trim().toUpperCase()];
  const instance = found.instance ?? fromCountry;
  if (instance !== undefined && instance !== 'SWE') return undefined;
  if (found.instance === undefined && ems.country !== undefined && fromCountry === undefined) return undefined;
  return found.id;
}

/**
 * The id under which the service is observed to look Swedish events up (observed, not published):
 * `EventorSweden:{eventorId}-{race}`, for an id that may be Sweden's (`swedishEventorId`; the answer is then
 * checked against the export). `race` is the export's race when it says (`EmsExport.race`); without it race 1 is
 * asked for, but not for an export spanning several days, which has no one race.
 */
export function eventorSwedenLookupId(ems: EmsEvent, race: number | undefined): string | undefined {
  const id = swedishEventorId(ems)?.trim();
  if (id === undefined || !/^[1-9]\d{0,9}$/.test(id)) return undefined;
  if (race === undefined) {
    // Race 1 is a guess: only for an export of one day (a day of a multi-day event is checked by its date after).
    const oneDay = ems.start === undefined || ems.end === undefined || ems.start.slice(0, 10) === ems.end.slice(0, 10);
    if (!oneDay) return undefined;
  }
  return `EventorSweden:${id}-${race ?? 1}`;
}
