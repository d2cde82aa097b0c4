/**
 * What `readEventAndClasses` gives to find an event on a web service and match its classes by course: the event's
 * ids and organiser countries, the races' positions, and each class's course (the values its course elements agree
 * on, and the control sequence of its OK individual results' split times).
 */
import { describe, expect, it } from 'vitest';
import { readEventAndClasses } from '../../src/iof/event-classes/read.js';
import type { IofEventClasses } from '../../src/iof/model.js';
import { fixture, iofExample, realdata, utf8 } from '../helpers/files.js';

// The expected values of the real files were read from them with grep and awk (control codes per result, statuses,
// course elements), not taken from the reader's output.

const NS = 'xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"';

function read(doc: string): Promise<IofEventClasses> {
  return readEventAndClasses(utf8(doc));
}

/** A 3.0 individual result: its status, then one split time per code (`+code` marks an `Additional` punch). */
function result3(status: string, codes: string[] = []): string {
  const splits = codes
    .map((code) =>
      code.startsWith('+')
        ? `<SplitTime status="Additional"><ControlCode>${code.slice(1)}</ControlCode><Time>9</Time></SplitTime>`
        : `<SplitTime><ControlCode>${code}</ControlCode><Time>9</Time></SplitTime>`,
    )
    .join('');
  return `<PersonResult><Person><Name><Family>F</Family><Given>G</Given></Name></Person><Result><Status>${status}</Status>${splits}</Result></PersonResult>`;
}

/** A 3.0 result list of one class block. */
function resultList3(classBody: string, event = '<Event><Name>E</Name></Event>'): string {
  return `<ResultList ${NS}>${event}<ClassResult><Class><Id>1</Id><Name>H21</Name></Class>${classBody}</ClassResult></ResultList>`;
}

const COURSE_A = '<Course><Id>7</Id><Name>A</Name><Length>4200</Length><Climb>85</Climb></Course>';

describe('readEventAndClasses: the course of each class in real result and start lists', () => {
  it('reads the SPORTident Center courses, with the control sequence of the classes that have OK results', async () => {
    const r = await readEventAndClasses(realdata('iof3/splittimes_sportident_center_ResultList_LesRuires2024.xml'));
    expect(r.event?.externalIds).toEqual([{ id: '15060' }]);
    expect(r.classes.map((c) => c.course)).toEqual([
      // No results: the class-level Course only.
      { id: '1', name: 'Circuit-1', numberOfControls: 29 },
      { id: '2', name: 'Circuit-2', numberOfControls: 23 },
      {
        id: '3',
        name: 'Circuit-3',
        numberOfControls: 28,
        // All four OK results punched these 28 (NumberOfControls 28).
        // prettier-ignore
        controls: [
          '101', '103', '113', '104', '105', '106', '107', '102', '108', '109', '110', '114', '115', '116',
          '111', '107', '102', '118', '119', '120', '121', '122', '123', '112', '124', '125', '117', '110',
        ],
      },
      {
        id: '4',
        name: 'Circuit-4',
        numberOfControls: 22,
        // prettier-ignore
        controls: [
          '101', '103', '113', '102', '110', '114', '115', '116', '111', '107', '102',
          '118', '119', '120', '121', '122', '123', '112', '124', '125', '117', '110',
        ],
      },
    ]);
  });

  it('reads the Oribos courses (length and climb only) and takes the number of controls from the split times', async () => {
    const r = await readEventAndClasses(realdata('iof3/oribos_ResultList_VeNotte2020_BOM.xml'));
    const nero = r.classes.find((c) => c.id === 'NERO');
    // 86 OK results, all with these 21 codes; MissingPunch and DidNotFinish results are not asked.
    expect(nero?.course).toEqual({
      length: 7100,
      climb: 0,
      numberOfControls: 21,
      // prettier-ignore
      controls: [
        '54', '56', '60', '86', '73', '80', '79', '77', '80', '72', '64',
        '68', '69', '81', '89', '88', '66', '83', '85', '61', '100',
      ],
    });
    expect(r.classes.map((c) => [c.id, c.course?.length, c.course?.numberOfControls])).toEqual([
      ['NERO', 7100, 21],
      ['SC4', 7100, 21],
      ['ROSSO', 5500, 18],
      ['SC3', 5500, 18],
      ['GIALLO', 3600, 13],
      ['SC2', 3600, 13],
      ['BIANCO', 2300, 10],
      ['SC1', 2300, 10],
    ]);
  });

  it('reads the WinSplits 2.0.3 courses from CourseLength and the split times of CompetitorStatus OK', async () => {
    const r = await readEventAndClasses(realdata('iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml'));
    expect(r.classes.find((c) => c.name === 'H21')?.course).toEqual({
      length: 4370,
      numberOfControls: 17,
      // prettier-ignore
      controls: [
        '184', '187', '194', '192', '189', '188', '186', '181', '183',
        '180', '204', '209', '212', '216', '219', '198', '220',
      ],
    });
    expect(r.classes.map((c) => [c.name, c.course?.length, c.course?.numberOfControls])).toEqual([
      ['H21', 4370, 17],
      ['H20', 3770, 14],
      ['H18', 3500, 13],
      ['D21', 3600, 13],
      ['D20', 3250, 12],
      ['D18', 3250, 12],
    ]);
  });

  it('reads the SportOrg result list course (a UUID id) with no split times', async () => {
    const r = await readEventAndClasses(realdata('iof3/sportorg_ResultList.xml'));
    expect(r.classes[0]?.course).toEqual({
      id: 'f6a25b2a-4d56-45db-9486-a416990bc1cf',
      name: 'D1',
      length: 5600,
      numberOfControls: 3,
    });
  });

  it('gives no course in course data, which parseCourseData reads in full', async () => {
    for (const file of ['CourseData_Individual_Step2.xml', 'CourseData_Relay_Step2.xml']) {
      const r = await readEventAndClasses(iofExample(file));
      expect(r.classes.length).toBeGreaterThan(0);
      expect(r.classes.every((c) => c.course === undefined)).toBe(true);
    }
    // The 2.0.3 course data of fixtures/iof assigns classes (the real 2.0.3 one assigns none).
    const v2 = await readEventAndClasses(fixture('iof/CourseData_v203_classes_latin1.xml'));
    expect(v2.classes.length).toBeGreaterThan(0);
    expect(v2.classes.every((c) => c.course === undefined)).toBe(true);
  });
});

describe('readEventAndClasses: the control sequence of a class', () => {
  it('keeps the sequence every OK result gives, and counts its controls when the course does not', async () => {
    const r = await read(
      resultList3(
        COURSE_A +
          result3('OK', ['31', '32', '33']) +
          result3('OK', ['31', '32', '33']) +
          // Not OK: their splits are not asked, however they differ.
          result3('MissingPunch', ['31', '33']) +
          result3('DidNotFinish', ['31']) +
          // OK without split times: says nothing of the sequence.
          result3('OK'),
      ),
    );
    expect(r.classes[0]?.course).toEqual({
      id: '7',
      name: 'A',
      length: 4200,
      climb: 85,
      numberOfControls: 3,
      controls: ['31', '32', '33'],
    });
  });

  it('drops the sequence when two OK results differ (forked or score courses), keeping the rest of the course', async () => {
    for (const other of [
      ['31', '33', '32'],
      ['31', '32'],
      ['31', '32', '33', '34'],
    ]) {
      const r = await read(
        resultList3(
          COURSE_A + result3('OK', ['31', '32', '33']) + result3('OK', other) + result3('OK', ['31', '32', '33']),
        ),
      );
      expect(r.classes[0]?.course).toEqual({ id: '7', name: 'A', length: 4200, climb: 85 });
    }
  });

  it('leaves out Additional punches, and keeps Missing ones (they are on the course)', async () => {
    const missing = `<PersonResult><Person><Name><Family>F</Family></Name></Person><Result><Status>OK</Status><SplitTime><ControlCode>31</ControlCode><Time>5</Time></SplitTime><SplitTime status="Missing"><ControlCode>32</ControlCode></SplitTime><SplitTime><ControlCode>33</ControlCode><Time>9</Time></SplitTime></Result></PersonResult>`;
    const r = await read(resultList3(result3('OK', ['31', '+99', '32', '33']) + missing));
    expect(r.classes[0]?.course).toEqual({ numberOfControls: 3, controls: ['31', '32', '33'] });
  });

  it('drops the sequence when it does not have the NumberOfControls the course gives (radio controls only)', async () => {
    const course = '<Course><Name>A</Name><NumberOfControls>12</NumberOfControls></Course>';
    const r = await read(resultList3(course + result3('OK', ['69', '100']) + result3('OK', ['69', '100'])));
    expect(r.classes[0]?.course).toEqual({ name: 'A', numberOfControls: 12 });
  });

  it('ignores the split times of team members, whose legs differ', async () => {
    const member = (leg: number, codes: string[]): string =>
      `<TeamMemberResult><Person><Name><Family>F</Family></Name></Person><Result><Leg>${leg}</Leg><Status>OK</Status>${codes
        .map((c) => `<SplitTime><ControlCode>${c}</ControlCode></SplitTime>`)
        .join('')}</Result></TeamMemberResult>`;
    const team = `<TeamResult><Name>T</Name>${member(1, ['31', '32'])}${member(2, ['41', '42', '43'])}</TeamResult>`;
    const r = await read(resultList3(COURSE_A + team + team));
    expect(r.classes[0]).toMatchObject({ course: { id: '7', name: 'A', length: 4200, climb: 85 }, legs: 2 });
    expect(r.classes[0]?.course?.controls).toBeUndefined();
  });

  it('drops the sequence of a class shown with two courses, even when its OK results agree', async () => {
    // Forked: one OK result on course A, the one on course B mispunched.
    const b = '<Course><Id>8</Id><Name>B</Name><Length>4200</Length></Course>';
    const withCourse = (course: string, status: string): string =>
      result3(status, ['31', '32']).replace('</Status>', `</Status>${course}`);
    const r = await read(resultList3(withCourse(COURSE_A, 'OK') + withCourse(b, 'MissingPunch')));
    expect(r.classes[0]).toMatchObject({ courseIds: ['7', '8'], courseNames: ['A', 'B'] });
    expect(r.classes[0]?.course).toEqual({ length: 4200, climb: 85 });
  });

  it('joins the blocks of one class: the same sequence is kept, a different one drops it', async () => {
    const block = (codes: string[]): string =>
      `<ClassResult><Class><Id>1</Id><Name>H21</Name></Class>${result3('OK', codes)}</ClassResult>`;
    const same = await read(`<ResultList ${NS}>${block(['31', '32'])}${block(['31', '32'])}</ResultList>`);
    expect(same.classes).toEqual([
      { id: '1', name: 'H21', course: { numberOfControls: 2, controls: ['31', '32'] }, entries: 2 },
    ]);
    const other = await read(`<ResultList ${NS}>${block(['31', '32'])}${block(['32', '31'])}</ResultList>`);
    expect(other.classes).toEqual([{ id: '1', name: 'H21', entries: 2 }]);
  });

  it('keeps one sequence per class while reading 20,000 OK results of one class', async () => {
    const codes = Array.from({ length: 15 }, (_, i) => String(31 + i));
    const one = result3('OK', codes);
    const r = await read(resultList3(COURSE_A + one.repeat(20_000)));
    expect(r.classes[0]).toMatchObject({ entries: 20_000, course: { controls: codes, numberOfControls: 15 } });
  });
});

describe('readEventAndClasses: the course fields a class agrees on', () => {
  it('takes per-competitor courses (start list), and drops a field where competitors disagree', async () => {
    const start = (course: string): string =>
      `<PersonStart><Person><Name><Family>F</Family></Name></Person><Start><StartTime>2024-05-01T10:00:00Z</StartTime>${course}</Start></PersonStart>`;
    const doc = `<StartList ${NS}><Event><Name>E</Name></Event><ClassStart><Class><Name>D21</Name></Class>${start(
      '<Course><Name>Long</Name><Length>5100</Length><Climb>120</Climb><NumberOfControls>14</NumberOfControls></Course>',
    )}${start('<Course><Name>Long</Name><Length>5100</Length><Climb>125</Climb></Course>')}</ClassStart></StartList>`;
    const r = await read(doc);
    expect(r.classes).toEqual([
      { name: 'D21', courseNames: ['Long'], course: { name: 'Long', length: 5100, numberOfControls: 14 }, entries: 2 },
    ]);
  });

  it('passes over numbers that are not numbers, and gives no course when nothing is left', async () => {
    const r = await read(
      resultList3(
        '<Course><CourseFamily>F</CourseFamily><Length>abc</Length><Climb>-5</Climb><NumberOfControls>12.5</NumberOfControls></Course>',
      ),
    );
    expect(r.classes).toEqual([{ id: '1', name: 'H21', entries: 0 }]);
  });
});

describe('readEventAndClasses: event ids, organiser countries, race positions (IOF 3.0)', () => {
  it('gives every Event/Id with its type, and keeps the first as id', async () => {
    const r = await read(
      `<EntryList ${NS}><Event><Id type="Eventor">39887</Id><Id>local-7</Id><Id type="Eventor"> </Id><Name>E</Name></Event></EntryList>`,
    );
    expect(r.event).toMatchObject({
      id: '39887',
      externalIds: [{ type: 'Eventor', id: '39887' }, { id: 'local-7' }],
    });
  });

  it('gives no externalIds or countries when the event has none', async () => {
    const r = await read(
      `<StartList ${NS}><Event><Name>E</Name><Organiser><Name>OK</Name></Organiser></Event></StartList>`,
    );
    expect(r.event).toEqual({ name: 'E', organisers: ['OK'] });
  });

  it('gives the distinct country codes of the event and race organisers, upper-cased, three letters only', async () => {
    const organiser = (name: string, code: string): string =>
      `<Organiser><Name>${name}</Name><Country code="${code}">x</Country></Organiser>`;
    const race = (n: number, organisers: string): string =>
      `<Race><RaceNumber>${n}</RaceNumber><Name>R${n}</Name>${organisers}</Race>`;
    const doc = `<ResultList ${NS}><Event><Name>E</Name>${organiser('OK Linné', 'swe')}${organiser('Halden SK', 'NOR')}${race(
      1,
      organiser('IFK Göteborg', 'SWE') + organiser('Rasti', 'FIN'),
    )}${race(2, organiser('Club', 'SE') + organiser('Club', 'S1E') + organiser('Club', ''))}</Event></ResultList>`;
    const r = await read(doc);
    expect(r.event?.countries).toEqual(['SWE', 'NOR', 'FIN']);
    // Race organisers add their countries, not their names.
    expect(r.event?.organisers).toEqual(['OK Linné', 'Halden SK']);
  });

  it('gives the Race/Position in degrees, and none for grid values or text', async () => {
    const race = (n: number, position: string): string =>
      `<Race><RaceNumber>${n}</RaceNumber><Name>R${n}</Name>${position}</Race>`;
    const doc = `<StartList ${NS}><Event><Name>E</Name>${race(1, '<Position lng="17.684297" lat="59.761193" alt="58"/>')}${race(
      2,
      '<Position lng="-0.4" lat="211958"/>',
    )}${race(3, '<Position lng="x" lat="1"/>')}${race(4, '<Position lat="51.5"/>')}${race(5, '<Position lng="-180" lat="-90"/>')}</Event></StartList>`;
    const r = await read(doc);
    expect(r.races).toEqual([
      { number: 1, name: 'R1', position: { lat: 59.761193, lng: 17.684297 } },
      { number: 2, name: 'R2' },
      { number: 3, name: 'R3' },
      { number: 4, name: 'R4' },
      { number: 5, name: 'R5', position: { lat: -90, lng: -180 } },
    ]);
  });

  it('reads the first event of an event list only', async () => {
    const event = (id: string, code: string): string =>
      `<Event><Id type="Eventor">${id}</Id><Name>E${id}</Name><Organiser><Name>O</Name><Country code="${code}">x</Country></Organiser></Event>`;
    const r = await read(`<EventList ${NS}>${event('1', 'SWE')}${event('2', 'NOR')}</EventList>`);
    expect(r.event).toEqual({
      id: '1',
      externalIds: [{ type: 'Eventor', id: '1' }],
      name: 'E1',
      organisers: ['O'],
      countries: ['SWE'],
    });
  });
});

describe('readEventAndClasses: the IOF 2.0.3 equivalents', () => {
  const DOCTYPE = '<!DOCTYPE ResultList SYSTEM "IOFdata.dtd">';

  /** A 2.0.3 individual result: `CompetitorStatus`, the course part, then split times (`-` for one with no code). */
  function result2(status: string, course: string, codes: string[]): string {
    const splits = codes
      .map((code, i) =>
        code === '-'
          ? `<SplitTime sequence="${i + 1}"><Time>00:01:00</Time></SplitTime>`
          : i % 2 === 0
            ? `<SplitTime sequence="${i + 1}"><ControlCode>${code}</ControlCode></SplitTime>`
            : `<SplitTime sequence="${i + 1}"><Control><ControlCode>${code}</ControlCode></Control></SplitTime>`,
      )
      .join('');
    return `<PersonResult><PersonId>1</PersonId><Result><CompetitorStatus value="${status}"/>${course}${splits}</Result></PersonResult>`;
  }

  it('reads EventId with its idManager (else its type) and the organising clubs’ CountryId', async () => {
    const doc = `${DOCTYPE}<ResultList><IOFVersion version="2.0.3"/><Event><EventId type="nat" idManager="SWE">3</EventId><Name>E</Name><Organiser><Club><ClubId>1</ClubId><Name>A</Name><ShortName>A</ShortName><CountryId value="SWE"/></Club><Club><ClubId>2</ClubId><Name>B</Name><ShortName>B</ShortName><Country><CountryId value="NOR"/><Name>Norge</Name></Country></Club><Club><ClubId>3</ClubId><Name>C</Name><ShortName>C</ShortName><CountryId value="other"/></Club></Organiser></Event></ResultList>`;
    const r = await read(doc);
    expect(r.event).toMatchObject({
      id: '3',
      externalIds: [{ type: 'SWE', id: '3' }],
      organisers: ['A', 'B', 'C'],
      countries: ['SWE', 'NOR'],
    });
    const typeOnly = await read(
      `${DOCTYPE}<ResultList><IOFVersion version="2.0.3"/><Event><EventId type="nat">5</EventId><Name>E</Name></Event></ResultList>`,
    );
    expect(typeOnly.event?.externalIds).toEqual([{ type: 'nat', id: '5' }]);
  });

  it('reads CourseVariation (lengths in km converted) and the split times of CompetitorStatus OK', async () => {
    const variation =
      '<CourseVariation><CourseVariationId>2</CourseVariationId><Name>Lång</Name><CourseLength unit="km">4.37</CourseLength><CourseClimb>95</CourseClimb><CourseControl><Sequence>1</Sequence><ControlCode>31</ControlCode></CourseControl></CourseVariation>';
    const doc = `${DOCTYPE}<ResultList><IOFVersion version="2.0.3"/><ClassResult><ClassShortName>H21</ClassShortName>${result2(
      'OK',
      variation,
      ['31', '32', '33'],
    )}${result2('OK', variation, ['31', '32', '33'])}${result2('MisPunch', variation, ['31'])}${
      // A split time without a control code: this result's sequence is not known, so it does not count.
      result2('OK', variation, ['31', '-', '33'])
    }</ClassResult></ResultList>`;
    const r = await read(doc);
    expect(r.classes).toEqual([
      {
        name: 'H21',
        shortName: 'H21',
        courseIds: ['2'],
        courseNames: ['Lång'],
        course: { id: '2', name: 'Lång', length: 4370, climb: 95, numberOfControls: 3, controls: ['31', '32', '33'] },
        entries: 4,
      },
    ]);
  });

  it('drops 2.0.3 sequences that differ, and lengths competitors disagree on', async () => {
    const doc = `${DOCTYPE}<ResultList><IOFVersion version="2.0.3"/><ClassResult><ClassShortName>D21</ClassShortName>${result2(
      'OK',
      '<CourseLength>3600</CourseLength>',
      ['31', '32'],
    )}${result2('OK', '<CourseLength unit="m">3600</CourseLength>', ['32', '31'])}</ClassResult><ClassResult><ClassShortName>D20</ClassShortName>${result2(
      'OK',
      '<CourseLength>3250</CourseLength>',
      [],
    )}${result2('OK', '<CourseLength>3300</CourseLength>', [])}</ClassResult></ResultList>`;
    const r = await read(doc);
    expect(r.classes).toEqual([
      { name: 'D21', shortName: 'D21', course: { length: 3600 }, entries: 2 },
      { name: 'D20', shortName: 'D20', entries: 2 },
    ]);
  });

  it('ignores the split times of 2.0.3 team members', async () => {
    const member = `<PersonResult><PersonId>1</PersonId><Result><CompetitorStatus value="OK"/><TeamSequence>1</TeamSequence><SplitTime sequence="1"><ControlCode>31</ControlCode></SplitTime></Result></PersonResult>`;
    const doc = `${DOCTYPE}<ResultList><IOFVersion version="2.0.3"/><ClassResult><ClassShortName>Stafett</ClassShortName><TeamResult><TeamName>T</TeamName><TeamStatus value="OK"/>${member}</TeamResult></ClassResult></ResultList>`;
    const r = await read(doc);
    expect(r.classes).toEqual([{ name: 'Stafett', shortName: 'Stafett', entries: 1, legs: 1 }]);
  });

  it('reads the CourseLength of a 2.0.3 start list, in feet converted to metres', async () => {
    const start = (length: string): string =>
      `<PersonStart><PersonId>1</PersonId><Start><StartTime><Clock>10:00:00</Clock></StartTime>${length}</Start></PersonStart>`;
    const doc = `<!DOCTYPE StartList SYSTEM "IOFdata.dtd"><StartList><IOFVersion version="2.0.3"/><ClassStart><ClassShortName>M50</ClassShortName>${start(
      '<CourseLength unit="ft">10000</CourseLength>',
    )}${start('<CourseLength unit="ft">10000</CourseLength>')}</ClassStart></StartList>`;
    const r = await read(doc);
    expect(r.classes[0]?.course).toEqual({ length: 3048 });
  });
});

describe('readEventAndClasses: the first competitor start', () => {
  it('gives the earliest 3.0 start time of any competitor, which dates exports without an event date', async () => {
    // grep StartTime | sort: the OE2010 export's earliest start; its Event has no StartTime.
    const oe = await readEventAndClasses(realdata('iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml'));
    expect(oe.event?.start).toBeUndefined();
    expect(oe.firstStart).toBe('2016-03-01T11:57:04.500');
    const relay = await readEventAndClasses(realdata('iof3/liveresults_helga_ResultList_relay_snapshot.xml'));
    expect(relay.firstStart).toBe('2019-01-23T17:30:00');
  });

  it('leaves it out for 2.0.3 clock times, which carry no date', async () => {
    const v2 = await readEventAndClasses(realdata('iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml'));
    expect(v2.firstStart).toBeUndefined();
  });
});
