/**
 * Great Britain: events all year round, the JK at Easter, the Harvester night relay, multi-day Scottish and Lakes
 * events; small events offer colour-coded courses (one class per course), bigger ones age classes with a
 * course-length letter (M45L, W21E).
 *
 * One CountryProfile (`profile.ts`): data, plus the class conventions as code because they vary with event size and
 * discipline.
 */
import type { Random } from '../../random.js';
import { agePair, relay, veteranAgesFor } from './age-classes.js';
import { numbers, stageLabel } from './labels.js';
import type {
  ClassSpec,
  Classic,
  Club,
  CountryProfile,
  Discipline,
  Level,
  NameTemplate,
  Region,
  RelayClassSpec,
} from './profile.js';
import { BRITISH_MONTHS } from './seasons.js';

const GBR_REGIONS: Region[] = [
  { place: 'Sheffield', district: 'Yorkshire', lat: 53.38, lng: -1.6, weight: 3 },
  { place: 'Lake District', district: 'North West', lat: 54.45, lng: -3.05, weight: 3 },
  { place: 'Aviemore', district: 'Scottish', lat: 57.19, lng: -3.83, weight: 2 },
  { place: 'Edinburgh', district: 'Scottish', lat: 55.95, lng: -3.19, weight: 2 },
  { place: 'Glasgow', district: 'Scottish', lat: 55.86, lng: -4.25, weight: 1 },
  { place: 'London', district: 'South East', lat: 51.5, lng: -0.12, weight: 3 },
  { place: 'Surrey Hills', district: 'South East', lat: 51.2, lng: -0.4, weight: 2 },
  { place: 'New Forest', district: 'South Central', lat: 50.87, lng: -1.63, weight: 2 },
  { place: 'Cannock Chase', district: 'West Midlands', lat: 52.75, lng: -2.0, weight: 2 },
  { place: 'Forest of Dean', district: 'South West', lat: 51.8, lng: -2.55, weight: 1 },
  { place: 'Brecon Beacons', district: 'Welsh', lat: 51.88, lng: -3.44, weight: 1 },
  { place: 'Bristol', district: 'South West', lat: 51.45, lng: -2.59, weight: 1 },
  { place: 'Leeds', district: 'Yorkshire', lat: 53.8, lng: -1.55, weight: 2 },
  { place: 'Manchester', district: 'North West', lat: 53.48, lng: -2.24, weight: 1 },
  { place: 'Oxford', district: 'South Central', lat: 51.75, lng: -1.26, weight: 1 },
  { place: 'Cambridge', district: 'East Anglia', lat: 52.2, lng: 0.12, weight: 1 },
  { place: 'Northumberland', district: 'North East', lat: 55.2, lng: -2.0, weight: 1 },
];

const GBR_CLUBS: Club[] = [
  { name: 'South Yorkshire Orienteers', short: 'SYO', region: 0 },
  { name: 'Derwent Valley Orienteers', short: 'DVO', region: 0 },
  { name: 'Lakeland Orienteering Club', short: 'LOC', region: 1 },
  { name: 'Border Liners', short: 'BL', region: 1 },
  { name: 'Badenoch & Strathspey Orienteering Club', short: 'BASOC', region: 2 },
  { name: 'Inverness Orienteering Club', short: 'INVOC', region: 2 },
  { name: 'Edinburgh Southern Orienteering Club', short: 'ESOC', region: 3 },
  { name: 'Interlopers', short: 'INT', region: 3 },
  { name: 'Clydesdale Orienteers', short: 'CLYDE', region: 4 },
  { name: 'South London Orienteers', short: 'SLOW', region: 5 },
  { name: 'London Orienteering Klubb', short: 'LOK', region: 5 },
  { name: 'Southern Navigators', short: 'SN', region: 6 },
  { name: 'Guildford Orienteers', short: 'GO', region: 6 },
  { name: 'Southampton Orienteering Club', short: 'SOC', region: 7 },
  { name: 'Wessex Orienteering Club', short: 'WIM', region: 7 },
  { name: 'Walton Chasers', short: 'WCH', region: 8 },
  { name: 'Harlequins', short: 'HOC', region: 8 },
  { name: 'North Gloucestershire Orienteering Club', short: 'NGOC', region: 9 },
  { name: 'South Wales Orienteering Club', short: 'SWOC', region: 10 },
  { name: 'Bristol Orienteering Klub', short: 'BOK', region: 11 },
  { name: 'Airienteers', short: 'AIRE', region: 12 },
  { name: 'Ebor Orienteers', short: 'EBOR', region: 12 },
  { name: 'Manchester & District Orienteering Club', short: 'MDOC', region: 13 },
  { name: 'Thames Valley Orienteering Club', short: 'TVOC', region: 14 },
  { name: 'West Anglia Orienteering Club', short: 'WAOC', region: 15 },
  { name: 'Cambridge University Orienteering Club', short: 'CUOC', region: 15 },
  { name: 'Newcastle and Tyneside Orienteers', short: 'NATO', region: 16 },
];

const GBR_TEMPLATES: NameTemplate[] = [
  {
    text: '{short} Colour Coded Event',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'Local',
    weight: 5,
  },
  { text: '{short} Saturday Series', kind: 'single', disciplines: ['Middle'], classification: 'Club', weight: 3 },
  { text: '{short} Urban Series', kind: 'single', disciplines: ['Sprint'], classification: 'Local', weight: 3 },
  { text: '{short} City Race', kind: 'single', disciplines: ['Sprint'], classification: 'Regional', weight: 2 },
  {
    text: '{district} Championships',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'Championship',
    weight: 2,
  },
  {
    text: 'CompassSport Cup Heat',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'National',
    weight: 1,
    months: [3, 4],
  },
  { text: '{short} Night Event', kind: 'single', disciplines: ['Night'], classification: 'Local', weight: 2 },
  {
    text: '{district} Night Championships',
    kind: 'single',
    disciplines: ['Night'],
    classification: 'Championship',
    weight: 1,
  },
  { text: '{short} Relays', kind: 'single', disciplines: ['Relay'], classification: 'Regional', weight: 1 },
  {
    text: '{short} Weekend',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    weight: 2,
    days: [2, 2],
  },
];

const GBR_CLASSICS: Classic[] = [
  {
    name: 'JK {year}',
    kind: 'multi',
    disciplines: ['Sprint', 'Middle', 'Long'],
    classification: 'International',
    months: 'easter',
    days: 3,
    size: 2500,
  },
  {
    name: 'Harvester',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'National',
    months: [7],
    size: 600,
    startHour: 22,
    durationH: 9,
    relayClasses: [relay('Harvester Trophy', 'Trophy', 7, 1), relay('Short Trophy', 'Short', 4, 0.7)],
  },
  {
    name: 'Scottish 6 Days {year}',
    kind: 'multi',
    disciplines: ['Middle', 'Long', 'Middle', 'Long', 'Middle', 'Long'],
    classification: 'International',
    months: [8],
    place: 'Aviemore',
    days: 6,
    yearParity: 1,
    size: 3000,
    firstWeekday: 0,
  },
  {
    name: 'Lakes 5 Days',
    kind: 'multi',
    disciplines: ['Middle', 'Long', 'Middle', 'Long', 'Long'],
    classification: 'International',
    months: [8],
    place: 'Lake District',
    days: 5,
    yearParity: 0,
    size: 2000,
    firstWeekday: 0,
  },
  {
    name: 'Scottish Spring',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    months: [3],
    place: 'Aviemore',
    days: 2,
    size: 800,
  },
  {
    name: 'British Long Distance Championships',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'Championship',
    months: [5],
    size: 1200,
  },
  {
    name: 'British Middle Distance Championships',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [9],
    size: 900,
  },
  {
    name: 'British Sprint Championships',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Championship',
    months: [5],
    size: 700,
  },
  {
    name: 'British Relay Championships',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    months: [10],
    size: 900,
  },
  {
    name: 'British Night Championships',
    kind: 'single',
    disciplines: ['Night'],
    classification: 'Championship',
    months: [2],
    size: 400,
  },
  {
    name: 'November Classic',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'National',
    months: [11],
    place: 'Surrey Hills',
    size: 700,
  },
];

/** British Orienteering's colour-coded courses, with their relative lengths. */
const BRITISH_COLOURS: readonly ClassSpec[] = [
  { name: 'Black', factor: 1.1 },
  { name: 'Brown', factor: 1 },
  { name: 'Short Brown', factor: 0.85 },
  { name: 'Blue', factor: 0.75 },
  { name: 'Green', factor: 0.55 },
  { name: 'Short Green', factor: 0.45 },
  { name: 'Light Green', factor: 0.4 },
  { name: 'Orange', factor: 0.33 },
  { name: 'Yellow', factor: 0.24 },
  { name: 'White', factor: 0.16 },
];

function britishClasses(r: Random, level: Level, discipline: Discipline): ClassSpec[] {
  if (level === 'small') {
    // Local events offer colour courses, each class its own course; Black and Short Brown only sometimes.
    return BRITISH_COLOURS.filter(
      (c) => (c.name !== 'Black' || r.chance(0.2)) && (c.name !== 'Short Brown' || r.chance(0.4)),
    ).map((c) => ({ ...c, ownCourse: true }));
  }
  // Age classes with a course-length letter: E elite, L long, S short, A for juniors.
  const classes: ClassSpec[] = [];
  const championship = level === 'big' && r.chance(0.4);
  if (championship)
    classes.push(
      { name: 'Men Elite', shortName: 'ME', factor: 1.1 },
      { name: 'Women Elite', shortName: 'WE', factor: 0.85 },
    );
  else classes.push({ name: 'M21E', factor: 1.1 }, { name: 'W21E', factor: 0.85 });
  for (const age of [10, 12, 14, 16, 18, 20]) {
    const letter = age >= 18 ? (r.chance(0.5) ? 'E' : 'L') : 'A';
    classes.push(...agePair('M', 'W', age, letter));
  }
  classes.push(
    { name: 'M21L', factor: 0.9 },
    { name: 'W21L', factor: 0.68 },
    { name: 'M21S', factor: 0.6 },
    { name: 'W21S', factor: 0.48 },
  );
  for (const age of veteranAgesFor(level, discipline)) {
    classes.push(...agePair('M', 'W', age, 'L'));
    if (age === 45 || age === 55) classes.push(...agePair('M', 'W', age, 'S', 0.75));
  }
  return classes;
}

function britishRelays(_r: Random, level: Level): RelayClassSpec[] {
  const out = [
    relay("Men's Open", 'MO', 3, 1),
    relay("Women's Open", 'WO', 3, 0.75),
    relay('Junior Relay', 'Jun', 3, 0.5),
  ];
  if (level !== 'small') out.push(relay("Men's Veteran", 'MV', 3, 0.7), relay("Women's Veteran", 'WV', 3, 0.55));
  return out;
}

export const GREAT_BRITAIN: CountryProfile = {
  code: 'GBR',
  language: 'en',
  utcOffsetHours: 0,
  weight: 13,
  monthWeights: BRITISH_MONTHS,
  climbPerKm: [15, 40],
  regions: GBR_REGIONS,
  clubs: GBR_CLUBS,
  templates: GBR_TEMPLATES,
  classics: GBR_CLASSICS,
  stageLabel,
  courseNames: (_r, count) => numbers(count).map((n) => `Course ${n}`),
  individualClasses: britishClasses,
  relayClasses: britishRelays,
  tld: 'org.uk',
};
