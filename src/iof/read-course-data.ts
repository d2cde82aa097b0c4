/**
 * Reads IOF `CourseData` (XML 3.0, with or without its namespace, and the older 2.0.3 DTD format) into the typed model.
 * Lenient where real exporters differ harmlessly (missing optional parts, empty elements), strict where a wrong value
 * would silently corrupt a course (a length of `978,3`, an unknown control type).
 *
 * One file for both versions, past 400 lines: their readers share one value reader (numbers, positions, units, the
 * element path in every error), and splitting the versions apart would split that class.
 */
import { DECIMAL, LENGTH_UNITS, scaled } from './numbers.js';
import { InputError } from '../errors.js';
import type {
  ClassCourseAssignment,
  Control,
  ControlType,
  Course,
  CourseControl,
  CourseData,
  EventInfo,
  GeoPosition,
  MapInfo,
  MapPosition,
  RaceCourseData,
} from './model.js';
import { decodeXml } from '../xml/decode.js';
import { IOF_ENTITY_DECLARATION_HINT } from './identify.js';
import { ATTR, MAX_XML_CHARS, TEXT, parseXmlDocument, rootElementName } from '../xml/tree.js';
import { attribute, isNode, type XmlNode } from '../xml/walk.js';
import { compact } from '../core/compact.js';

/**
 * Elements that may repeat, by path. One list for both versions: 3.0 nests controls and courses under
 * `RaceCourseData`, 2.0.3 puts them directly under the root, so the paths never collide. `Control` is a list both
 * under `RaceCourseData` (control definitions) and under `CourseControl` (3.0 allows alternatives there), but is a
 * single code inside a 2.0.3 `CourseControl`.
 */
const LIST_PATHS = new Set([
  'CourseData.Event.Organiser',
  'CourseData.RaceCourseData',
  'CourseData.RaceCourseData.Map',
  'CourseData.RaceCourseData.Control',
  'CourseData.RaceCourseData.Course',
  'CourseData.RaceCourseData.Course.CourseControl',
  'CourseData.RaceCourseData.Course.CourseControl.Control',
  'CourseData.RaceCourseData.ClassCourseAssignment',
  'CourseData.RaceCourseData.ClassCourseAssignment.AllowedOnLeg',
  'CourseData.StartPoint',
  'CourseData.Control',
  'CourseData.CrossingPoint',
  'CourseData.FinishPoint',
  'CourseData.Course',
  'CourseData.Course.ClassId',
  'CourseData.Course.ClassShortName',
  'CourseData.Course.CourseVariation',
  'CourseData.Course.CourseVariation.CourseControl',
  'CourseData.Course.CourseVariation.CourseControl.LegLength',
]);

const CONTROL_TYPES: ReadonlySet<string> = new Set<ControlType>([
  'Control',
  'Start',
  'Finish',
  'CrossingPoint',
  'EndOfMarkedRoute',
]);

/**
 * Parses an IOF `CourseData` file (bytes in any encoding `decodeXml` knows).
 *
 * - IOF 3.0: every `RaceCourseData`; `Control` `type` defaults to `Control` as the schema says; a `CourseControl`
 *   without `type` takes the type of the control it names. Positions are read as given: old Condes files put
 *   projected easting/northing in `lng`/`lat`, which a later check has to flag.
 * - IOF 2.0.3: one race; `StartPoint`, `Control`, `CrossingPoint` (not in the DTD, but written by course setters) and
 *   `FinishPoint` become controls of those types; `ControlPosition` x/y become `position.lng`/`lat` as given (metres
 *   of the map's grid unless its unit is `WGS-84`); each `CourseVariation` is a course (a course with several
 *   variations becomes a course family); `ClassShortName`/`ClassId` become class assignments. 2.0.3 course data has
 *   no event, so `event.name` is empty.
 * - `Course.numberOfControls` counts the course's controls of type `Control`.
 * - `ClassCourseAssignment.courseName` is `''` when the file assigns a whole course family (3.0 allows that).
 * - A 3.0 `CourseControl` listing alternative controls keeps the first.
 *
 * Throws `InputError` with reason `wrong_message_type` (another root element), `invalid_value` (with the element
 * path), or any reason of `decodeXml` and `parseXmlDocument`.
 */
export function parseCourseData(bytes: Uint8Array, source = 'input'): CourseData {
  if (bytes.byteLength > MAX_XML_CHARS) {
    throw new InputError(
      source,
      'too_large',
      `the file has ${bytes.byteLength} bytes; at most ${MAX_XML_CHARS} are accepted.`,
    );
  }
  const { text } = decodeXml(bytes, source);
  // Looking at the root first turns "you gave me a result list" into one clear error before a full parse.
  const root = rootElementName(text);
  if (root !== undefined && root !== 'CourseData') {
    throw new InputError(
      source,
      'wrong_message_type',
      `expected an IOF CourseData document but the root element is ${root}.`,
      {
        hint: 'Course data is exported from the course-setting software (OCAD, Condes, Purple Pen, OpenOrienteering Mapper).',
      },
    );
  }
  const doc = parseXmlDocument(text, source, {
    isArray: (path) => LIST_PATHS.has(path),
    entityDeclarationHint: IOF_ENTITY_DECLARATION_HINT,
  });
  const courseData = node(doc['CourseData']) ?? {};
  const reader = new Reader(source);
  return isIof2(courseData, reader) ? reader.read2(courseData) : reader.read3(courseData);
}

function isIof2(root: XmlNode, reader: Reader): boolean {
  const declared = str(root[`${ATTR}iofVersion`]) ?? attribute(first(root['IOFVersion']), 'version');
  if (declared !== undefined && declared !== '') {
    if (declared.startsWith('3')) return false;
    if (declared.startsWith('2')) return true;
    throw new InputError(
      reader.source,
      'unsupported_version',
      `IOF version "${declared}" is not supported (3.0 and 2.0.3 are).`,
    );
  }
  // No version anywhere: decide by shape. 3.0 always has an Event and RaceCourseData.
  return !('RaceCourseData' in root || 'Event' in root);
}

/* ------------------------------------------------------------------------------------------------ plain helpers */

function node(v: unknown): XmlNode | undefined {
  return isNode(v) ? v : undefined;
}

function list(v: unknown): unknown[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** A single-valued element that a file repeats anyway counts once: the first occurrence. */
function first(v: unknown): unknown {
  return Array.isArray(v) ? v[0] : v;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Text content of an element, whether it parsed as a string or (having attributes) as an object. */
function text(v: unknown): string | undefined {
  const one = first(v);
  if (typeof one === 'string') return one;
  const n = node(one);
  if (n === undefined) return undefined;
  const t = n[TEXT];
  return typeof t === 'string' ? t : '';
}

/** Text that means nothing when empty (`<CourseFamily/>`). */
function nonEmpty(v: unknown): string | undefined {
  const t = text(v);
  return t === undefined || t === '' ? undefined : t;
}

const INTEGER = /^[+-]?\d+$/;

/* ------------------------------------------------------------------------------------------------------- reader */

class Reader {
  constructor(readonly source: string) {}

  private invalid(path: string, message: string): InputError {
    return new InputError(this.source, 'invalid_value', `${path}: ${message}`);
  }

  /** An xs:double; empty or absent is `undefined`, anything else that is not a finite number is an error. */
  number(raw: string | undefined, path: string): number | undefined {
    if (raw === undefined) return undefined;
    const t = raw.trim();
    if (t === '') return undefined;
    if (!DECIMAL.test(t)) throw this.invalid(path, `"${raw}" is not a number.`);
    const n = Number(t);
    // -0 and 0 are the same coordinate; normalising keeps round trips and deep equality simple.
    return n === 0 ? 0 : n;
  }

  integer(raw: string | undefined, path: string): number | undefined {
    if (raw === undefined) return undefined;
    const t = raw.trim();
    if (t === '') return undefined;
    if (!INTEGER.test(t)) throw this.invalid(path, `"${raw}" is not a whole number.`);
    return Number(t);
  }

  controlType(raw: string | undefined, path: string): ControlType | undefined {
    if (raw === undefined) return undefined;
    if (!CONTROL_TYPES.has(raw)) {
      throw this.invalid(path, `"${raw}" is not a control type (${[...CONTROL_TYPES].join(', ')}).`);
    }
    return raw as ControlType;
  }

  geoPosition(n: XmlNode | undefined, path: string): GeoPosition | undefined {
    if (n === undefined) return undefined;
    const lat = this.number(attribute(n, 'lat'), `${path}/@lat`);
    const lng = this.number(attribute(n, 'lng'), `${path}/@lng`);
    const alt = this.number(attribute(n, 'alt'), `${path}/@alt`);
    if (lat === undefined || lng === undefined) throw this.invalid(path, 'a position needs both lat and lng.');
    return compact({ lat, lng, alt });
  }

  mapPosition(n: XmlNode | undefined, path: string): MapPosition | undefined {
    if (n === undefined) return undefined;
    const x = this.number(attribute(n, 'x'), `${path}/@x`);
    const y = this.number(attribute(n, 'y'), `${path}/@y`);
    if (x === undefined || y === undefined) throw this.invalid(path, 'a map position needs both x and y.');
    const unit = attribute(n, 'unit') ?? 'mm';
    if (unit !== 'mm' && unit !== 'px') throw this.invalid(`${path}/@unit`, `"${unit}" is not a map unit (mm, px).`);
    return { x, y, unit };
  }

  /** `Date` plus optional `Time` as one ISO 8601 string, as written (offset kept, none invented). */
  dateTime(n: XmlNode | undefined, timeElement: 'Time' | 'Clock'): string | undefined {
    if (n === undefined) return undefined;
    const date = nonEmpty(n['Date']);
    if (date === undefined) return undefined;
    const time = nonEmpty(n[timeElement]);
    return time === undefined ? date : `${date}T${time}`;
  }

  /* ------------------------------------------------------------------------------------------------- IOF 3.0 */

  read3(root: XmlNode): CourseData {
    const races = list(root['RaceCourseData']).map((r, i) =>
      this.race3(node(r) ?? {}, `/CourseData/RaceCourseData[${i + 1}]`),
    );
    return compact({
      iofVersion: '3.0' as const,
      creator: attribute(root, 'creator'),
      createTime: attribute(root, 'createTime'),
      event: this.event3(node(first(root['Event']))),
      races,
    });
  }

  private event3(n: XmlNode | undefined): EventInfo {
    if (n === undefined) return { name: '', organisers: [] };
    return compact({
      id: nonEmpty(n['Id']),
      name: text(n['Name']) ?? '',
      start: this.dateTime(node(first(n['StartTime'])), 'Time'),
      end: this.dateTime(node(first(n['EndTime'])), 'Time'),
      organisers: list(n['Organiser'])
        .map((o) => nonEmpty(node(o)?.['Name']))
        .filter((name): name is string => name !== undefined),
    });
  }

  private race3(n: XmlNode, path: string): RaceCourseData {
    const maps = list(n['Map']).map((m, i) => this.map3(node(m) ?? {}, `${path}/Map[${i + 1}]`));
    const controls = list(n['Control']).map((c, i) => this.control3(node(c) ?? {}, `${path}/Control[${i + 1}]`));
    const typeOf = new Map(controls.map((c) => [c.id, c.type]));
    const courses = list(n['Course']).map((c, i) => this.course3(node(c) ?? {}, `${path}/Course[${i + 1}]`, typeOf));
    const classAssignments = list(n['ClassCourseAssignment']).map((a, i) =>
      this.assignment3(node(a) ?? {}, `${path}/ClassCourseAssignment[${i + 1}]`),
    );
    return compact({
      raceNumber: this.integer(attribute(n, 'raceNumber'), `${path}/@raceNumber`),
      maps,
      controls,
      courses,
      classAssignments,
    });
  }

  private map3(n: XmlNode, path: string): MapInfo {
    return compact({
      id: nonEmpty(n['Id']),
      scale: this.number(text(n['Scale']), `${path}/Scale`),
      mapPositionTopLeft: this.mapPosition(node(first(n['MapPositionTopLeft'])), `${path}/MapPositionTopLeft`),
      mapPositionBottomRight: this.mapPosition(
        node(first(n['MapPositionBottomRight'])),
        `${path}/MapPositionBottomRight`,
      ),
    });
  }

  private control3(n: XmlNode, path: string): Control {
    return compact({
      id: text(n['Id']) ?? '',
      type: this.controlType(attribute(n, 'type'), `${path}/@type`) ?? 'Control',
      position: this.geoPosition(node(first(n['Position'])), `${path}/Position`),
      mapPosition: this.mapPosition(node(first(n['MapPosition'])), `${path}/MapPosition`),
    });
  }

  private course3(n: XmlNode, path: string, typeOf: ReadonlyMap<string, ControlType>): Course {
    const controls = list(n['CourseControl']).map((cc, i): CourseControl => {
      const ccPath = `${path}/CourseControl[${i + 1}]`;
      const c = node(cc) ?? {};
      const controlId = text(first(c['Control'])) ?? '';
      return compact({
        controlId,
        type: this.controlType(attribute(c, 'type'), `${ccPath}/@type`) ?? typeOf.get(controlId) ?? 'Control',
        legLength: this.number(text(c['LegLength']), `${ccPath}/LegLength`),
        mapText: nonEmpty(c['MapText']),
        score: this.number(text(c['Score']), `${ccPath}/Score`),
      });
    });
    return compact({
      id: nonEmpty(n['Id']),
      name: text(n['Name']) ?? '',
      courseFamily: nonEmpty(n['CourseFamily']),
      length: this.number(text(n['Length']), `${path}/Length`),
      climb: this.number(text(n['Climb']), `${path}/Climb`),
      numberOfControls: controls.filter((c) => c.type === 'Control').length,
      controls,
    });
  }

  private assignment3(n: XmlNode, path: string): ClassCourseAssignment {
    const legs = list(n['AllowedOnLeg'])
      .map((l, i) => this.integer(text(l), `${path}/AllowedOnLeg[${i + 1}]`))
      .filter((l): l is number => l !== undefined);
    return compact({
      classId: nonEmpty(n['ClassId']),
      className: nonEmpty(n['ClassName']),
      courseName: text(n['CourseName']) ?? '',
      courseFamily: nonEmpty(n['CourseFamily']),
      allowedOnLegs: legs.length > 0 ? legs : undefined,
    });
  }

  /* ----------------------------------------------------------------------------------------------- IOF 2.0.3 */

  read2(root: XmlNode): CourseData {
    const path = '/CourseData';
    const controls: Control[] = [];
    const known = new Set<string>();
    const add = (c: Control): void => {
      if (known.has(c.id)) return;
      known.add(c.id);
      controls.push(c);
    };
    const kinds: Array<[string, string, ControlType]> = [
      ['StartPoint', 'StartPointCode', 'Start'],
      ['Control', 'ControlCode', 'Control'],
      ['CrossingPoint', 'ControlCode', 'CrossingPoint'],
      ['FinishPoint', 'FinishPointCode', 'Finish'],
    ];
    for (const [element, codeElement, type] of kinds) {
      list(root[element]).forEach((c, i) =>
        add(this.control2(node(c) ?? {}, codeElement, type, `${path}/${element}[${i + 1}]`)),
      );
    }

    const courses: Course[] = [];
    const classAssignments: ClassCourseAssignment[] = [];
    list(root['Course']).forEach((c, i) => {
      const coursePath = `${path}/Course[${i + 1}]`;
      const cn = node(c) ?? {};
      const name = text(cn['CourseName']) ?? '';
      const variations = list(cn['CourseVariation']);
      const family = variations.length > 1;
      if (variations.length === 0) {
        courses.push(compact({ id: nonEmpty(cn['CourseId']), name, controls: [] }));
      }
      variations.forEach((v, k) => {
        courses.push(
          this.variation2(
            node(v) ?? {},
            name,
            family,
            nonEmpty(cn['CourseId']),
            `${coursePath}/CourseVariation[${k + 1}]`,
            add,
            controls,
          ),
        );
      });
      // A class runs the course; when the course is split into variations (relay gaffling) it runs the family.
      const target = family ? { courseName: '', courseFamily: name } : { courseName: name };
      for (const classId of list(cn['ClassId'])) {
        const id = nonEmpty(classId);
        if (id !== undefined) classAssignments.push({ classId: id, ...target });
      }
      for (const shortName of list(cn['ClassShortName'])) {
        const className = nonEmpty(shortName);
        if (className !== undefined) classAssignments.push({ className, ...target });
      }
    });

    const mapNode = node(first(root['Map']));
    const maps: MapInfo[] =
      mapNode === undefined
        ? []
        : [
            compact({
              scale: this.number(text(mapNode['Scale']), `${path}/Map/Scale`),
              // 2.0.3 gives only the top left corner of the course-setting bitmap on the map.
              mapPositionTopLeft: this.mapPosition2(node(first(mapNode['MapPosition'])), `${path}/Map/MapPosition`),
            }),
          ];

    const modify = node(first(root['ModifyDate']));
    return compact({
      iofVersion: '2.0.3' as const,
      // The file's last modification is the nearest 2.0.3 has to a creation time.
      createTime: this.dateTime(modify, 'Clock'),
      event: { name: '', organisers: [] },
      races: [{ maps, controls, courses, classAssignments }],
    });
  }

  private control2(n: XmlNode, codeElement: string, type: ControlType, path: string): Control {
    return compact({
      id: text(n[codeElement]) ?? '',
      type,
      position: this.controlPosition2(node(first(n['ControlPosition'])), `${path}/ControlPosition`),
      mapPosition: this.mapPosition2(node(first(n['MapPosition'])), `${path}/MapPosition`),
    });
  }

  private controlPosition2(n: XmlNode | undefined, path: string): GeoPosition | undefined {
    if (n === undefined) return undefined;
    const x = this.number(attribute(n, 'x'), `${path}/@x`);
    const y = this.number(attribute(n, 'y'), `${path}/@y`);
    if (x === undefined || y === undefined) throw this.invalid(path, 'a control position needs both x and y.');
    const unit = attribute(n, 'unit') ?? 'm';
    // Grid coordinates go in metres, like the projected values Condes writes into IOF 3.0 Position.
    const factor = unit === 'WGS-84' || unit === 'other' ? 1 : LENGTH_UNITS[unit];
    if (factor === undefined)
      throw this.invalid(`${path}/@unit`, `"${unit}" is not a position unit (m, ft, km, WGS-84, other).`);
    return { lat: scaled(y, factor), lng: scaled(x, factor) };
  }

  /** 2.0.3 map positions are in mm or "other"; an unknown unit cannot be placed on the map, so it is left out. */
  private mapPosition2(n: XmlNode | undefined, path: string): MapPosition | undefined {
    if (n === undefined) return undefined;
    const unit = attribute(n, 'unit') ?? 'mm';
    if (unit !== 'mm') return undefined;
    const x = this.number(attribute(n, 'x'), `${path}/@x`);
    const y = this.number(attribute(n, 'y'), `${path}/@y`);
    if (x === undefined || y === undefined) throw this.invalid(path, 'a map position needs both x and y.');
    return { x, y, unit: 'mm' };
  }

  private length2(n: unknown, path: string): number | undefined {
    const value = this.number(text(n), path);
    if (value === undefined) return undefined;
    const unit = attribute(node(first(n)), 'unit') ?? 'm';
    const factor = LENGTH_UNITS[unit];
    if (factor === undefined) throw this.invalid(`${path}/@unit`, `"${unit}" is not a length unit (m, km, ft).`);
    return scaled(value, factor);
  }

  private variation2(
    v: XmlNode,
    courseName: string,
    family: boolean,
    courseId: string | undefined,
    path: string,
    add: (c: Control) => void,
    controls: readonly Control[],
  ): Course {
    // Start and finish may be given inline instead of by code; inline definitions join the race's controls.
    const inlineStart = node(first(v['StartPoint']));
    if (inlineStart) add(this.control2(inlineStart, 'StartPointCode', 'Start', `${path}/StartPoint`));
    const inlineFinish = node(first(v['FinishPoint']));
    if (inlineFinish) add(this.control2(inlineFinish, 'FinishPointCode', 'Finish', `${path}/FinishPoint`));
    const typeOf = (id: string): ControlType => controls.find((c) => c.id === id)?.type ?? 'Control';

    const sequence: CourseControl[] = [];
    const start = nonEmpty(v['StartPointCode']) ?? nonEmpty(inlineStart?.['StartPointCode']);
    if (start !== undefined) sequence.push({ controlId: start, type: 'Start' });
    let count = 0;
    list(v['CourseControl']).forEach((cc, i) => {
      const ccPath = `${path}/CourseControl[${i + 1}]`;
      const c = node(cc) ?? {};
      const inline = node(first(c['Control']));
      if (inline) add(this.control2(inline, 'ControlCode', 'Control', `${ccPath}/Control`));
      const id = nonEmpty(c['ControlCode']) ?? nonEmpty(inline?.['ControlCode']) ?? '';
      // LegLength may repeat with FromControl for alternative previous controls; the plain one is the leg in order.
      const legs = list(c['LegLength']);
      const leg = legs.find((l) => attribute(node(l), 'FromControl') === undefined) ?? legs[0];
      const type = typeOf(id);
      if (type === 'Control') count++;
      sequence.push(compact({ controlId: id, type, legLength: this.length2(leg, `${ccPath}/LegLength`) }));
    });
    const finish = nonEmpty(v['FinishPointCode']) ?? nonEmpty(inlineFinish?.['FinishPointCode']);
    if (finish !== undefined) {
      sequence.push(
        compact({
          controlId: finish,
          type: 'Finish' as const,
          legLength: this.length2(v['DistanceToFinish'], `${path}/DistanceToFinish`),
        }),
      );
    }

    const variationId = nonEmpty(v['CourseVariationId']);
    return compact({
      id: family ? undefined : courseId,
      name: family ? (nonEmpty(v['Name']) ?? `${courseName} ${variationId ?? ''}`.trim()) : courseName,
      courseFamily: family ? courseName : undefined,
      length: this.length2(v['CourseLength'], `${path}/CourseLength`),
      climb: this.length2(v['CourseClimb'], `${path}/CourseClimb`),
      numberOfControls: count,
      controls: sequence,
    });
  }
}
