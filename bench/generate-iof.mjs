// Deterministic, schema-valid IOF XML 3.0 documents for benchmarks and tests: a ResultList of any size (a large
// event's EMS export) and a CourseData with any number of courses and controls. Same options, same bytes.
//
//   node bench/generate-iof.mjs resultlist <targetBytes> <out.xml> [seed]
//   node bench/generate-iof.mjs coursedata <courses> <controls> <out.xml> [seed]
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const NS = 'http://www.orienteering.org/datastandard/3.0';
const EVENT_DATE = '2024-07-22';
const OFFSET = '+02:00';
const CREATE_TIME = `${EVENT_DATE}T18:30:00${OFFSET}`;

/** mulberry32: small, fast, good enough to vary names and times; the same seed gives the same document. */
function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

const GIVEN_F = [
  'Märta',
  'Åsa',
  'Linnéa',
  'Tove',
  'Ingrid',
  'Sofie',
  'Éloïse',
  'Zoë',
  'Žofie',
  'Anaïs',
  'Tiril',
  'Hanna',
  'Karolína',
  'Gudrún',
  'Saana',
  'Maëlle',
  'Frida',
  'Øydis',
  'Agnieszka',
  'Léa',
];
const GIVEN_M = [
  'Björn',
  'Åke',
  'Jérôme',
  'Øyvind',
  'Łukasz',
  'Mikaël',
  'Tomáš',
  'Jörg',
  'Göran',
  'Matthias',
  'Olli-Pekka',
  'Kasper',
  'Eirik',
  'Gustav',
  'Thierry',
  'Jiří',
  'Sindre',
  'Ruben',
  'Niklas',
  'Seán',
];
const FAMILY = [
  'Åström',
  'Lindqvist',
  'Nordström',
  'Østergaard',
  'Kärkkäinen',
  'Müller',
  'Gueorgiou',
  'Dvořák',
  'Sjöberg',
  'Hübmann',
  'Løvseth',
  'Novák',
  'Söderström',
  'Lundanes',
  'Kyburz',
  'Renaud-Méry',
  'Bergström',
  "O'Brien",
  'Alm',
  'Zieliński',
  'Väätäinen',
  'Strömberg',
  'Ødegård',
  'Häggström',
  'Öberg',
];
const CLUBS = [
  ['IFK Göteborg Orientering', 'SWE', 'Sweden'],
  ['Järla Orientering', 'SWE', 'Sweden'],
  ['OK Linné', 'SWE', 'Sweden'],
  ['Sävedalens AIK', 'SWE', 'Sweden'],
  ['Kungälvs OK & SK', 'SWE', 'Sweden'],
  ['Halden SK', 'NOR', 'Norway'],
  ['Bækkelagets SK', 'NOR', 'Norway'],
  ['Kalevan Rasti', 'FIN', 'Finland'],
  ['Turun Suunnistajat', 'FIN', 'Finland'],
  ['OLG Bern', 'SUI', 'Switzerland'],
  ['TJ Tesla Brno', 'CZE', 'Czech Republic'],
  ['Łódzki Klub Orientacji', 'POL', 'Poland'],
  ["Club d'Orientation Évry", 'FRA', 'France'],
  ['Ørsted OK', 'DEN', 'Denmark'],
];
const CLASS_NAMES = [
  ['H21', 'H21E', 'M'],
  ['D21', 'D21E', 'F'],
  ['H20', 'H20', 'M'],
  ['D20', 'D20', 'F'],
  ['H18', 'H18', 'M'],
  ['D18', 'D18', 'F'],
  ['H16', 'H16', 'M'],
  ['D16', 'D16', 'F'],
  ['H35', 'H35', 'M'],
  ['D35', 'D35', 'F'],
  ['H45', 'H45', 'M'],
  ['D45', 'D45', 'F'],
  ['H55', 'H55', 'M'],
  ['D55', 'D55', 'F'],
  ['H65', 'H65', 'M'],
  ['D65', 'D65', 'F'],
  ['H75', 'H75', 'M'],
  ['D75', 'D75', 'F'],
  ['Öppen 1', 'Ö1', 'B'],
  ['Öppen 5', 'Ö5', 'B'],
  ['Öppen 9', 'Ö9', 'B'],
  ['Inskolning', 'Insk', 'B'],
  ['Motion Lång', 'ML', 'B'],
  ['Direktanmälan Kort', 'DK', 'B'],
];
const STATUSES = [
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'OK',
  'MissingPunch',
  'DidNotFinish',
  'DidNotStart',
  'Disqualified',
];

function esc(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');
}

function two(n) {
  return String(n).padStart(2, '0');
}

/** `EVENT_DATE` plus `seconds` after midnight, with the event's offset. */
function clock(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${EVENT_DATE}T${two(h)}:${two(m)}:${two(s)}${OFFSET}`;
}

function header(root, extra = '') {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<${root} xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" iofVersion="3.0" ` +
    `createTime="${CREATE_TIME}" creator="livelox-bridge generate-iof"${extra}>\n`
  );
}

function eventXml(name) {
  return (
    `  <Event>\n    <Id>24071</Id>\n    <Name>${esc(name)}</Name>\n` +
    `    <StartTime>\n      <Date>${EVENT_DATE}</Date>\n      <Time>10:00:00${OFFSET}</Time>\n    </StartTime>\n` +
    `    <EndTime>\n      <Date>${EVENT_DATE}</Date>\n      <Time>16:00:00${OFFSET}</Time>\n    </EndTime>\n` +
    `    <Organiser>\n      <Id>221</Id>\n      <Name>Järla Orientering</Name>\n    </Organiser>\n` +
    `    <Organiser>\n      <Id>225</Id>\n      <Name>OK Linné</Name>\n    </Organiser>\n` +
    `    <Race>\n      <RaceNumber>1</RaceNumber>\n      <Name>Etapp 1, medeldistans</Name>\n` +
    `      <StartTime>\n        <Date>${EVENT_DATE}</Date>\n        <Time>10:00:00${OFFSET}</Time>\n      </StartTime>\n` +
    `    </Race>\n  </Event>\n`
  );
}

/** A class's course: an id, a name, and the codes of its controls in order (start and finish not included). */
function makeCourse(rnd, index) {
  const n = rnd.int(6, 24);
  const codes = [];
  for (let i = 0; i < n; i++) {
    let code;
    do code = String(rnd.int(31, 199));
    while (code === codes[codes.length - 1]);
    codes.push(code);
  }
  return {
    id: String(index + 1),
    name: `Bana ${index + 1}`,
    length: n * rnd.int(180, 420),
    climb: rnd.int(5, 40) * 5,
    codes,
  };
}

function personResultXml(p, course) {
  let x =
    `    <PersonResult>\n` +
    `      <Person sex="${p.sex}">\n        <Id>${p.personId}</Id>\n` +
    `        <Name>\n          <Family>${esc(p.family)}</Family>\n          <Given>${esc(p.given)}</Given>\n        </Name>\n` +
    `      </Person>\n` +
    `      <Organisation>\n        <Id>${p.clubId}</Id>\n        <Name>${esc(p.club[0])}</Name>\n` +
    `        <Country code="${p.club[1]}">${p.club[2]}</Country>\n      </Organisation>\n` +
    `      <Result>\n        <BibNumber>${p.bib}</BibNumber>\n`;
  if (p.status !== 'DidNotStart') {
    x += `        <StartTime>${clock(p.start)}</StartTime>\n`;
    if (p.time !== undefined) {
      x += `        <FinishTime>${clock(p.start + p.time)}</FinishTime>\n        <Time>${p.time}</Time>\n`;
    }
    if (p.position !== undefined) {
      x += `        <TimeBehind>${p.behind}</TimeBehind>\n        <Position>${p.position}</Position>\n`;
    }
  }
  x += `        <Status>${p.status}</Status>\n`;
  if (p.status !== 'DidNotStart') {
    for (let i = 0; i < course.codes.length; i++) {
      const split = p.splits[i];
      x +=
        split === undefined
          ? `        <SplitTime status="Missing">\n          <ControlCode>${course.codes[i]}</ControlCode>\n        </SplitTime>\n`
          : `        <SplitTime>\n          <ControlCode>${course.codes[i]}</ControlCode>\n          <Time>${split}</Time>\n        </SplitTime>\n`;
    }
  }
  x += `        <ControlCard punchingSystem="SI">${p.card}</ControlCard>\n      </Result>\n    </PersonResult>\n`;
  return x;
}

/** The persons of one class, with results placed as a result list places them: finishers by time, then the rest. */
function makePersons(rnd, count, sex, course, counters) {
  const persons = [];
  for (let i = 0; i < count; i++) {
    const s = sex === 'B' ? (rnd.next() < 0.5 ? 'F' : 'M') : sex;
    const clubIndex = rnd.int(0, CLUBS.length - 1);
    const status = rnd.pick(STATUSES);
    const start = 10 * 3600 + rnd.int(0, 180) * 60;
    const speed = 0.6 + rnd.next() * 0.9;
    const splits = [];
    let t = 0;
    const missing = status === 'MissingPunch' ? rnd.int(0, course.codes.length - 1) : -1;
    const stopAt = status === 'DidNotFinish' ? rnd.int(0, course.codes.length - 1) : course.codes.length;
    for (let k = 0; k < course.codes.length; k++) {
      t += Math.round((60 + rnd.next() * 240) / speed);
      splits.push(k === missing || k >= stopAt ? undefined : t);
    }
    const time =
      status === 'OK' || status === 'MissingPunch' || status === 'Disqualified' ? t + rnd.int(20, 60) : undefined;
    counters.persons++;
    persons.push({
      sex: s,
      personId: String(100000 + counters.persons),
      given: rnd.pick(s === 'F' ? GIVEN_F : GIVEN_M),
      family: rnd.pick(FAMILY),
      club: CLUBS[clubIndex],
      clubId: String(1000 + clubIndex),
      bib: String(counters.persons),
      card: String(8000000 + counters.persons * 7),
      status,
      start,
      time,
      splits,
    });
  }
  const finishers = persons.filter((p) => p.status === 'OK').sort((a, b) => a.time - b.time);
  const rest = persons.filter((p) => p.status !== 'OK');
  const best = finishers[0]?.time ?? 0;
  finishers.forEach((p, i) => {
    // Ties share a place, as result lists print them.
    p.position = i > 0 && finishers[i - 1].time === p.time ? finishers[i - 1].position : i + 1;
    p.behind = p.time - best;
  });
  return [...finishers, ...rest];
}

function classResultXml(cls, course, persons) {
  let x =
    `  <ClassResult>\n    <Class>\n      <Id>${cls.id}</Id>\n      <Name>${esc(cls.name)}</Name>\n` +
    `      <ShortName>${esc(cls.shortName)}</ShortName>\n    </Class>\n` +
    `    <Course>\n      <Id>${course.id}</Id>\n      <Name>${course.name}</Name>\n      <Length>${course.length}</Length>\n` +
    `      <Climb>${course.climb}</Climb>\n      <NumberOfControls>${course.codes.length}</NumberOfControls>\n    </Course>\n`;
  for (const p of persons) x += personResultXml(p, course);
  return x + `  </ClassResult>\n`;
}

/**
 * A ResultList of about `targetBytes` (at least that many, over by less than one entry), with its summary: the classes
 * in document order (`id`, `name`, `shortName`, `entries`, `courseId`, `courseName`) and the number of persons.
 */
export function generateResultListWithSummary({ targetBytes, seed = 1 }) {
  const rnd = random(seed);
  const head = header('ResultList', ' status="Complete"') + eventXml('O-Ringen Smålandskusten 2024, etapp 1');
  const tail = '</ResultList>\n';
  const parts = [head];
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail);
  const counters = { persons: 0 };
  const classes = [];
  for (let c = 0; size < targetBytes; c++) {
    const [baseName, baseShort, sex] = CLASS_NAMES[c % CLASS_NAMES.length];
    const round = Math.floor(c / CLASS_NAMES.length);
    const cls = {
      id: String(101 + c),
      name:
        round === 0
          ? baseName
          : `${baseName} ${String.fromCharCode(65 + ((round - 1) % 26))}${round > 26 ? round : ''}`,
      shortName: round === 0 ? baseShort : `${baseShort}-${round}`,
    };
    const course = makeCourse(rnd, c);
    let count = rnd.int(15, 250);
    const before = { persons: counters.persons };
    let persons = makePersons(rnd, count, sex, course, counters);
    let xml = classResultXml(cls, course, persons);
    let bytes = Buffer.byteLength(xml);
    if (size + bytes > targetBytes && count > 1) {
      // The last class: as many entries as reach the target, not the whole class.
      const perPerson = bytes / count;
      count = Math.max(1, Math.min(count, Math.ceil((targetBytes - size - 300) / perPerson)));
      counters.persons = before.persons;
      persons = makePersons(rnd, count, sex, course, counters);
      xml = classResultXml(cls, course, persons);
      bytes = Buffer.byteLength(xml);
      while (size + bytes < targetBytes) {
        count++;
        counters.persons = before.persons;
        persons = makePersons(rnd, count, sex, course, counters);
        xml = classResultXml(cls, course, persons);
        bytes = Buffer.byteLength(xml);
      }
    }
    parts.push(xml);
    size += bytes;
    classes.push({ ...cls, entries: count, courseId: course.id, courseName: course.name });
  }
  parts.push(tail);
  return { bytes: Buffer.from(parts.join(''), 'utf8'), summary: { classes, persons: counters.persons } };
}

/** A schema-valid IOF 3.0 ResultList of at least `targetBytes` bytes (over by less than one entry), UTF-8. */
export function generateResultList({ targetBytes, seed = 1 }) {
  return generateResultListWithSummary({ targetBytes, seed }).bytes;
}

/** Great-circle metres between two degree positions. */
function metres(a, b) {
  const r = 6371008.8;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * r * Math.asin(Math.sqrt(h));
}

/**
 * A CourseData with `courses` courses over `controls` controls (codes 31 up, plus start `S1` and finish `F1`), degree
 * positions and map positions in millimetres at 1:10000, leg lengths agreeing with the positions, one class per course.
 * Returns the bytes and a summary (`courses` with their control codes, `controls`, `classes`).
 */
export function generateCourseDataWithSummary({ courses, controls, seed = 1 }) {
  const rnd = random(seed);
  const origin = { lat: 59.3, lng: 18.05 };
  const mPerDegLat = 111_320;
  const mPerDegLng = 111_320 * Math.cos((origin.lat * Math.PI) / 180);
  const place = (xm, ym) => ({
    lat: Number((origin.lat + ym / mPerDegLat).toFixed(7)),
    lng: Number((origin.lng + xm / mPerDegLng).toFixed(7)),
    x: Number((xm / 10).toFixed(1)),
    y: Number((ym / 10).toFixed(1)),
  });
  const points = [{ id: 'S1', type: 'Start', ...place(1500, 1000) }];
  for (let i = 0; i < controls; i++) {
    points.push({ id: String(31 + i), type: 'Control', ...place(rnd.int(0, 3000), rnd.int(0, 2000)) });
  }
  points.push({ id: 'F1', type: 'Finish', ...place(1600, 1050) });
  const byId = new Map(points.map((p) => [p.id, p]));

  let x = header('CourseData');
  x += `  <Event>\n    <Name>Järfälla Cup, medeldistans</Name>\n    <StartTime>\n      <Date>${EVENT_DATE}</Date>\n    </StartTime>\n  </Event>\n`;
  x += `  <RaceCourseData>\n    <Map>\n      <Scale>10000</Scale>\n`;
  x += `      <MapPositionTopLeft x="0" y="200" unit="mm"/>\n      <MapPositionBottomRight x="300" y="0" unit="mm"/>\n    </Map>\n`;
  for (const p of points) {
    x +=
      `    <Control${p.type === 'Control' ? '' : ` type="${p.type}"`}>\n      <Id>${p.id}</Id>\n` +
      `      <Position lng="${p.lng}" lat="${p.lat}"/>\n      <MapPosition x="${p.x}" y="${p.y}" unit="mm"/>\n    </Control>\n`;
  }
  const summaryCourses = [];
  const classes = [];
  for (let c = 0; c < courses; c++) {
    const n = Math.min(controls, rnd.int(6, 22));
    const codes = [];
    for (let i = 0; i < n; i++) {
      let code;
      do code = String(31 + rnd.int(0, controls - 1));
      while (controls > 1 && code === codes[codes.length - 1]);
      codes.push(code);
    }
    const sequence = ['S1', ...codes, 'F1'];
    const legs = sequence.map((id, i) => (i === 0 ? 0 : Math.round(metres(byId.get(sequence[i - 1]), byId.get(id)))));
    const length = legs.reduce((a, b) => a + b, 0);
    const name = `Bana ${c + 1}`;
    x += `    <Course>\n      <Id>${c + 1}</Id>\n      <Name>${name}</Name>\n      <Length>${length}</Length>\n      <Climb>${rnd.int(2, 30) * 5}</Climb>\n`;
    sequence.forEach((id, i) => {
      const type = i === 0 ? 'Start' : i === sequence.length - 1 ? 'Finish' : 'Control';
      x += `      <CourseControl type="${type}">\n        <Control>${id}</Control>\n`;
      if (type === 'Control') x += `        <MapText>${i}</MapText>\n`;
      if (i > 0) x += `        <LegLength>${legs[i]}</LegLength>\n`;
      x += `      </CourseControl>\n`;
    });
    x += `    </Course>\n`;
    summaryCourses.push({ id: String(c + 1), name, length, controls: sequence });
  }
  for (let c = 0; c < courses; c++) {
    const [className] = CLASS_NAMES[c % CLASS_NAMES.length];
    const round = Math.floor(c / CLASS_NAMES.length);
    const name = round === 0 ? className : `${className} ${round + 1}`;
    x += `    <ClassCourseAssignment>\n      <ClassId>${101 + c}</ClassId>\n      <ClassName>${esc(name)}</ClassName>\n      <CourseName>Bana ${c + 1}</CourseName>\n    </ClassCourseAssignment>\n`;
    classes.push({ id: String(101 + c), name, courseName: `Bana ${c + 1}` });
  }
  x += `  </RaceCourseData>\n</CourseData>\n`;
  return { bytes: Buffer.from(x, 'utf8'), summary: { courses: summaryCourses, controls: points.length, classes } };
}

/** A schema-valid IOF 3.0 CourseData, UTF-8: `courses` courses over `controls` controls plus a start and a finish. */
export function generateCourseData({ courses, controls, seed = 1 }) {
  return generateCourseDataWithSummary({ courses, controls, seed }).bytes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [kind, ...args] = process.argv.slice(2);
  if (kind === 'resultlist' && args.length >= 2) {
    const bytes = generateResultList({ targetBytes: Number(args[0]), seed: Number(args[2] ?? 1) });
    writeFileSync(args[1], bytes);
  } else if (kind === 'coursedata' && args.length >= 3) {
    const bytes = generateCourseData({
      courses: Number(args[0]),
      controls: Number(args[1]),
      seed: Number(args[3] ?? 1),
    });
    writeFileSync(args[2], bytes);
  } else {
    process.stderr.write(
      'usage: node bench/generate-iof.mjs resultlist <targetBytes> <out.xml> [seed]\n' +
        '       node bench/generate-iof.mjs coursedata <courses> <controls> <out.xml> [seed]\n',
    );
    process.exitCode = 2;
  }
}
