/**
 * The acceptance of the link job on real exports: each file of ../shared/realdata that names classes is read as the
 * event system's export, its event is put into a simulator dataset as the service would hold it (its own name for
 * the event, its own class-naming convention, a look-alike a week later), and every class must map to the class the
 * test meant, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveloxClient } from '../../src/client.js';
import { iofEmsSource } from '../../src/ems/iof-source.js';
import { linkJob } from '../../src/jobs/link.js';
import { parseDataset } from '../../src/simulator/dataset/file.js';
import { realdataPath } from '../helpers/files.js';
import { clientFor, startHarness, type SimHarness } from '../helpers/simulator.js';

interface Case {
  file: string;
  /** The event as the service holds it. */
  event: { id: number; name: string; start: string; end: string; country: string; organisers?: string[] };
  /** The export's class name -> the service's class name. */
  classes: Record<string, string>;
  /** Exports without date and name cannot be searched for: the user gives the id. */
  byId?: boolean;
  courses?: unknown;
  /** How the classes must be mapped, when not all by name. */
  methods?: Record<string, string>;
}

const iofConvention = (name: string) =>
  name
    .replace(/^H-?(\d)/, 'M$1')
    .replace(/^D-?(\d)/, 'W$1')
    .replace(/^HE$/, 'M21E')
    .replace(/^DE$/, 'W21E')
    .replace(/^HB$/, 'MB')
    .replace(/^DB$/, 'WB');

const BM_INTERCLUBS = [
  'D10A D10B D-12 D-14 D-16 D-18 DE D21 DB D35 D40 D45 D50 D55 D60 D65 D70',
  'H10A H10B H-12 H-14 H-16 H-18 H-20 HE H21 HB H35 H40 H45 H50 H55 H60 H65 H70 H75 H80 SE LE SD LD',
]
  .join(' ')
  .split(' ');

/** Controls for inline courses near Les Ruires: the codes matter to the matching, the places do not. */
function controlsNear(codes: readonly string[], lat: number, lng: number) {
  return [
    { id: 'S1', lat, lng },
    ...[...new Set(codes)].map((id, i) => ({ id, lat: lat + 0.0007 * Math.sin(i), lng: lng + 0.001 * Math.cos(i) })),
    { id: 'F1', lat: lat + 0.0002, lng: lng + 0.0002 },
  ];
}

// From the file (grep SplitTime/ControlCode of the OK results of each class).
const RUIRES_3 =
  '101 103 113 104 105 106 107 102 108 109 110 114 115 116 111 107 102 118 119 120 121 122 123 112 124 125 117 110'.split(
    ' ',
  );
const RUIRES_4 = '101 103 113 102 110 114 115 116 111 107 102 118 119 120 121 122 123 112 124 125 117 110'.split(' ');
const RUIRES_1 = Array.from({ length: 29 }, (_, i) => String(131 + i));
const RUIRES_2 = Array.from({ length: 23 }, (_, i) => String(161 + i));

const CASES: Case[] = [
  {
    file: 'iof3/liveresults_helga_StartList_BMInterclubs2017.xml',
    event: {
      id: 1001,
      name: 'BM Interclubs 2017',
      start: '2017-08-27T08:00:00Z',
      end: '2017-08-27T14:00:00Z',
      country: 'BEL',
    },
    classes: Object.fromEntries(BM_INTERCLUBS.map((n) => [n, iofConvention(n)])),
  },
  {
    file: 'iof3/oribos_ResultList_VeNotte2020_BOM.xml',
    event: {
      id: 1002,
      name: 'VeNotte 2020 - Venezia di notte',
      start: '2020-02-01T17:00:00Z',
      end: '2020-02-01T18:30:00Z',
      country: 'ITA',
    },
    classes: {
      Nero: 'NERO',
      'SCUOLA 4': 'Scuola 4',
      Rosso: 'ROSSO',
      'SCUOLA 3': 'Scuola 3',
      Giallo: 'GIALLO',
      'SCUOLA 2': 'Scuola 2',
      Bianco: 'BIANCO',
      'SCUOLA 1': 'Scuola 1',
    },
  },
  {
    file: 'iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml',
    // The export gives no event date: its first competitor start (2016-03-01T11:57) dates it.
    event: {
      id: 1003,
      name: 'SKIO2016 Sprint, JWSOC / EYSOC',
      start: '2016-03-01T10:00:00Z',
      end: '2016-03-01T13:00:00Z',
      country: 'AUT',
    },
    classes: { Men: 'H', Women: 'D' },
  },
  {
    file: 'iof3/splittimes_sportident_center_ResultList_LesRuires2024.xml',
    event: {
      id: 1004,
      name: 'Sprint des Ruires 2024',
      start: '2024-06-22T07:00:00Z',
      end: '2024-06-22T11:00:00Z',
      country: 'FRA',
    },
    // The service names the classes by colour: only the courses tie them to the export's numbered categories.
    classes: { 'Catégorie-1': 'Jaune', 'Catégorie-2': 'Orange', 'Catégorie-3': 'Vert', 'Catégorie-4': 'Bleu' },
    courses: {
      controls: controlsNear([...RUIRES_1, ...RUIRES_2, ...RUIRES_3, ...RUIRES_4], 45.39, 6.1),
      courses: [
        { name: 'Circuit-1', controls: ['S1', ...RUIRES_1, 'F1'] },
        { name: 'Circuit-2', controls: ['S1', ...RUIRES_2, 'F1'] },
        { name: 'Circuit-3', controls: ['S1', ...RUIRES_3, 'F1'] },
        { name: 'Circuit-4', controls: ['S1', ...RUIRES_4, 'F1'] },
      ],
    },
    methods: { 'Catégorie-1': 'course', 'Catégorie-2': 'course', 'Catégorie-3': 'course', 'Catégorie-4': 'course' },
  },
  {
    file: 'iof3/liveresults_helga_ResultList_relay_snapshot.xml',
    event: {
      id: 1005,
      name: 'Check Relais pour Live Results',
      start: '2019-01-23T18:00:00Z',
      end: '2019-01-23T20:00:00Z',
      country: 'BEL',
    },
    classes: { 'H. Open': 'Men Open' },
  },
  {
    file: 'iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml',
    event: {
      id: 1006,
      name: 'Kort-DM, Torvaldsblotet',
      start: '2003-06-25T16:00:00Z',
      end: '2003-06-25T19:00:00Z',
      country: 'SWE',
      organisers: ['Skogslöparna'],
    },
    classes: { H21: 'M21', H20: 'M20', H18: 'M18', D21: 'W21', D20: 'W20', D18: 'W18' },
  },
  {
    file: 'iof2/liveresults_meos_ResultList_v203.xml',
    event: {
      id: 1007,
      name: 'Cleveland Dam / Capilano River',
      start: '2014-07-22T17:00:00Z',
      end: '2014-07-22T20:00:00Z',
      country: 'CAN',
    },
    classes: { 'Easy/Intermediate': 'Easy / Intermediate' },
  },
  {
    file: 'iof3/sportorg_ResultList.xml',
    event: {
      id: 1008,
      name: 'SportOrg test',
      start: '2020-05-01T08:00:00Z',
      end: '2020-05-01T12:00:00Z',
      country: 'RUS',
    },
    classes: { Group1: 'Group 1' },
    byId: true,
  },
  {
    file: 'iof3/rg2_pwllddu_CourseData_PurplePen353.xml',
    event: { id: 1009, name: 'Pwllddu', start: '2016-03-06T10:00:00Z', end: '2016-03-06T13:00:00Z', country: 'GBR' },
    classes: { MO: 'MO', WSV: 'WSV', MSV: 'MSV', WUV: 'WUV', MUV: 'MUV' },
    byId: true,
  },
];

const WEEK_MS = 7 * 86_400_000;
const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString().replace('.000Z', 'Z');

let h: SimHarness;
let client: LiveloxClient;

beforeAll(async () => {
  let classId = 50_000;
  const events = CASES.flatMap((c) => {
    const classes = Object.values(c.classes).map((name, i) => {
      const course = (c.courses as { courses?: Array<{ name: string }> } | undefined)?.courses?.[i]?.name;
      return { id: ++classId, name, ...(course ? { courses: [course] } : {}) };
    });
    const real = {
      ...c.event,
      organisers: c.event.organisers ?? [],
      position: c.courses ? undefined : { latitude: 50, longitude: 5 },
      classes,
      ...(c.courses ? { courses: c.courses } : {}),
    };
    // The same event a week later, as a club's series would have it: it must lose on the date.
    const lookAlike = {
      ...c.event,
      id: c.event.id + 100,
      start: shift(c.event.start, WEEK_MS),
      end: shift(c.event.end, WEEK_MS),
      organisers: c.event.organisers ?? [],
      classes: Object.values(c.classes).map((name) => ({ id: ++classId, name })),
    };
    return [compactEvent(real), lookAlike];
  });
  const dataset = await parseDataset({ formatVersion: 1, events }, '.');
  h = await startHarness({ dataset });
  client = clientFor(h.sim);
});

function compactEvent(e: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined));
}

afterAll(async () => {
  await client.close();
  await h.sim.close();
});

describe('link on real event-system exports', () => {
  for (const c of CASES) {
    it(`maps every class of ${c.file} to the service's class of the event`, async () => {
      const source = iofEmsSource(realdataPath(c.file));
      const result = await linkJob({ client, source, ...(c.byId ? { eventId: c.event.id } : {}) });
      expect(result.status, result.event.reason).toBe('linked');
      expect(result.event.chosen?.id).toBe(c.event.id);
      const service = h.sim.state.dataset.events.find((e) => e.id === c.event.id)!;
      const mapped = Object.fromEntries(result.links.map((l) => [l.emsClass.name, l.serviceClass.name]));
      expect(mapped).toEqual(c.classes);
      for (const l of result.links) {
        expect(service.classes.find((x) => x.id === l.serviceClass.id)?.name).toBe(c.classes[l.emsClass.name]);
        if (c.methods?.[l.emsClass.name]) expect(l.method, l.emsClass.name).toBe(c.methods[l.emsClass.name]);
      }
      expect(result.unmatchedEms).toEqual([]);
      expect(result.unmatchedService).toEqual([]);
      expect(result.coursesCompared).toBe(c.courses !== undefined);
    });
  }
});
