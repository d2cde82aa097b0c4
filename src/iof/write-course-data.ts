/**
 * Writes the course-data model as IOF XML 3.0 `CourseData` that validates against IOF.xsd: elements in the schema's
 * sequence order, required elements present, numbers in plain decimal notation. Livelox imports exactly this format.
 */
import { ValidationError, type Issue } from '../errors.js';
import type {
  ClassCourseAssignment,
  Control,
  Course,
  CourseControl,
  CourseData,
  GeoPosition,
  MapInfo,
  MapPosition,
  RaceCourseData,
} from './model.js';
import { IOF3_NAMESPACE } from './identify.js';

export interface WriteCourseDataOptions {
  /** `creator` attribute of the document. Default `'livelox-bridge'`. */
  creator?: string;
  /** `createTime` attribute, written in UTC. Default: now. */
  createTime?: Date;
  /**
   * Write the races' `Control` definitions (codes with positions). Default `true`. When `false` they are left out;
   * courses keep their `CourseControl` sequences of codes, which IOF.xsd requires (at least two per `Course`).
   */
  includeControls?: boolean;
  /** Write `ClassCourseAssignment` elements. Default `true`. */
  includeClassAssignments?: boolean;
  /**
   * Write class names in class assignments. Default `true`. When `false`, `ClassId` stays and `ClassName` is written
   * empty: IOF.xsd requires the element.
   */
  includeClassNames?: boolean;
  /**
   * Maps each control position before writing, for example to projected easting/northing for a service that wants
   * grid coordinates in `lng`/`lat`. `alt` is kept from the original. Default: positions as they are.
   */
  position?: (p: GeoPosition) => { lat: number; lng: number };
}

/**
 * Serialises course data as IOF XML 3.0. Throws `ValidationError` listing every value that cannot be written validly
 * (a course with fewer than two controls, a number that is not finite, a date that is not ISO 8601, a character XML
 * cannot carry). A `Map` without scale and both corners (all an IOF 2.0.3 file gives is one corner) cannot be
 * expressed in 3.0 and is left out. An event without races gets one empty `RaceCourseData`, the schema's minimum.
 */
export function writeCourseData(data: CourseData, options: WriteCourseDataOptions = {}): string {
  const w = new Writer(options);
  const out = w.document(data);
  if (w.issues.length > 0) throw new ValidationError('course data cannot be written as IOF XML 3.0', w.issues);
  return out;
}

/* ------------------------------------------------------------------------------------------------------ numbers */

/**
 * Plain decimal notation for xs:double: `String(n)` is the shortest round-tripping form, but switches to exponent
 * notation below 1e-6 and from 1e21, which IOF consumers do not all read.
 */
export function formatNumber(n: number): string {
  if (Object.is(n, -0)) return '0';
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign = '', lead = '', fraction = '', expText = '0'] = m;
  const digits = lead + fraction;
  const point = 1 + Number(expText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** At most 7 decimals (about 1 cm in degrees); projected metres from a `position` hook lose nothing that matters. */
function formatCoordinate(n: number): string {
  return formatNumber(Math.abs(n) < 1e21 ? Number(n.toFixed(7)) : n);
}

/** createTime in UTC; whole seconds unless the Date carries milliseconds. */
function formatDateTime(d: Date): string {
  return d.toISOString().replace('.000Z', 'Z');
}

/* ---------------------------------------------------------------------------------------------------- escaping */

// XML 1.0 cannot carry these at all, not even as character references.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function escapeText(s: string): string {
  // \r would be turned into \n by every XML parser; a reference keeps it.
  return s.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

function escapeAttr(s: string): string {
  // Attribute-value normalisation turns literal tabs and newlines into spaces; references survive it.
  return s.replace(/[&<>"\t\n\r]/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case '\t':
        return '&#9;';
      case '\n':
        return '&#10;';
      default:
        return '&#13;';
    }
  });
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$/;

/* ------------------------------------------------------------------------------------------------------ writer */

class Writer {
  readonly issues: Issue[] = [];
  private readonly lines: string[] = [];
  private readonly includeControls: boolean;
  private readonly includeClassAssignments: boolean;
  private readonly includeClassNames: boolean;

  constructor(private readonly options: WriteCourseDataOptions) {
    this.includeControls = options.includeControls ?? true;
    this.includeClassAssignments = options.includeClassAssignments ?? true;
    this.includeClassNames = options.includeClassNames ?? true;
  }

  private issue(path: string, code: string, message: string): void {
    this.issues.push({ path, code, message });
  }

  private text(value: string, path: string): string {
    if (NOT_XML_CHAR.test(value)) this.issue(path, 'xml_char', 'contains a character XML cannot represent.');
    return escapeText(value);
  }

  private attrValue(value: string, path: string): string {
    if (NOT_XML_CHAR.test(value)) this.issue(path, 'xml_char', 'contains a character XML cannot represent.');
    return escapeAttr(value);
  }

  private num(n: number, path: string, format: (n: number) => string = formatNumber): string {
    if (!Number.isFinite(n)) {
      this.issue(path, 'not_finite', `${n} is not a finite number.`);
      return '0';
    }
    return format(n);
  }

  private int(n: number, path: string): string {
    if (!Number.isInteger(n)) {
      this.issue(path, 'not_integer', `${n} is not a whole number.`);
      return '0';
    }
    return formatNumber(n);
  }

  private line(depth: number, s: string): void {
    this.lines.push(`${'  '.repeat(depth)}${s}`);
  }

  private element(depth: number, name: string, value: string | undefined, path: string): void {
    if (value === undefined) return;
    this.line(depth, value === '' ? `<${name}/>` : `<${name}>${this.text(value, `${path}`)}</${name}>`);
  }

  private numberElement(depth: number, name: string, value: number | undefined, path: string): void {
    if (value === undefined) return;
    this.line(depth, `<${name}>${this.num(value, path)}</${name}>`);
  }

  document(data: CourseData): string {
    const createTime = this.options.createTime ?? new Date();
    if (Number.isNaN(createTime.getTime())) this.issue('createTime', 'format', 'is not a valid date.');
    const creator = this.options.creator ?? 'livelox-bridge';
    this.lines.push('<?xml version="1.0" encoding="UTF-8"?>');
    this.line(
      0,
      `<CourseData xmlns="${IOF3_NAMESPACE}" iofVersion="3.0"` +
        (Number.isNaN(createTime.getTime()) ? '' : ` createTime="${formatDateTime(createTime)}"`) +
        ` creator="${this.attrValue(creator, 'creator')}">`,
    );
    this.event(data);
    const races: readonly RaceCourseData[] =
      data.races.length > 0 ? data.races : [{ maps: [], controls: [], courses: [], classAssignments: [] }];
    races.forEach((race, i) => this.race(race, `races[${i}]`));
    this.line(0, '</CourseData>');
    return `${this.lines.join('\n')}\n`;
  }

  private event(data: CourseData): void {
    const e = data.event;
    this.line(1, '<Event>');
    this.element(2, 'Id', e.id, 'event.id');
    this.element(2, 'Name', e.name, 'event.name');
    this.dateAndTime(2, 'StartTime', e.start, 'event.start');
    this.dateAndTime(2, 'EndTime', e.end, 'event.end');
    e.organisers.forEach((name, i) => {
      this.line(2, '<Organiser>');
      this.element(3, 'Name', name, `event.organisers[${i}]`);
      this.line(2, '</Organiser>');
    });
    this.line(1, '</Event>');
  }

  /** IOF splits an ISO date-time into `Date` and optional `Time` (which keeps its offset). */
  private dateAndTime(depth: number, name: string, iso: string | undefined, path: string): void {
    if (iso === undefined) return;
    const t = iso.indexOf('T');
    const date = t < 0 ? iso : iso.slice(0, t);
    const time = t < 0 ? undefined : iso.slice(t + 1);
    if (!DATE.test(date) || (time !== undefined && !TIME.test(time))) {
      this.issue(
        path,
        'format',
        `"${iso}" is not an ISO 8601 date or date-time (2024-05-01 or 2024-05-01T10:00:00+02:00).`,
      );
      return;
    }
    this.line(depth, `<${name}>`);
    this.line(depth + 1, `<Date>${date}</Date>`);
    if (time !== undefined) this.line(depth + 1, `<Time>${time}</Time>`);
    this.line(depth, `</${name}>`);
  }

  private race(race: RaceCourseData, path: string): void {
    const raceNumber =
      race.raceNumber === undefined ? '' : ` raceNumber="${this.int(race.raceNumber, `${path}.raceNumber`)}"`;
    const maps = race.maps.filter(isWritableMap);
    const controls = this.includeControls ? race.controls : [];
    const assignments = this.includeClassAssignments ? race.classAssignments : [];
    if (maps.length + controls.length + race.courses.length + assignments.length === 0) {
      this.line(1, `<RaceCourseData${raceNumber}/>`);
      return;
    }
    this.line(1, `<RaceCourseData${raceNumber}>`);
    race.maps.forEach((m, i) => {
      if (isWritableMap(m)) this.map(m, `${path}.maps[${i}]`);
    });
    controls.forEach((c, i) => this.control(c, `${path}.controls[${i}]`));
    race.courses.forEach((c, i) => this.course(c, `${path}.courses[${i}]`));
    assignments.forEach((a, i) => this.assignment(a, `${path}.classAssignments[${i}]`));
    this.line(1, '</RaceCourseData>');
  }

  private map(m: WritableMap, path: string): void {
    this.line(2, '<Map>');
    this.element(3, 'Id', m.id, `${path}.id`);
    this.numberElement(3, 'Scale', m.scale, `${path}.scale`);
    this.mapPosition(3, 'MapPositionTopLeft', m.mapPositionTopLeft, `${path}.mapPositionTopLeft`);
    this.mapPosition(3, 'MapPositionBottomRight', m.mapPositionBottomRight, `${path}.mapPositionBottomRight`);
    this.line(2, '</Map>');
  }

  private mapPosition(depth: number, name: string, p: MapPosition, path: string): void {
    this.line(depth, `<${name} x="${this.num(p.x, `${path}.x`)}" y="${this.num(p.y, `${path}.y`)}" unit="${p.unit}"/>`);
  }

  private control(c: Control, path: string): void {
    this.line(2, `<Control type="${c.type}">`);
    this.element(3, 'Id', c.id, `${path}.id`);
    if (c.position) {
      const mapped = this.options.position ? this.options.position(c.position) : c.position;
      const alt =
        c.position.alt === undefined
          ? ''
          : ` alt="${this.num(c.position.alt, `${path}.position.alt`, formatCoordinate)}"`;
      this.line(
        3,
        `<Position lng="${this.num(mapped.lng, `${path}.position.lng`, formatCoordinate)}" lat="${this.num(mapped.lat, `${path}.position.lat`, formatCoordinate)}"${alt}/>`,
      );
    }
    if (c.mapPosition) this.mapPosition(3, 'MapPosition', c.mapPosition, `${path}.mapPosition`);
    this.line(2, '</Control>');
  }

  private course(c: Course, path: string): void {
    if (c.controls.length < 2) {
      this.issue(
        `${path}.controls`,
        'too_few_controls',
        `course "${c.name}" has ${c.controls.length} control(s); IOF XML 3.0 needs at least two (start and finish).`,
      );
    }
    this.line(2, '<Course>');
    this.element(3, 'Id', c.id, `${path}.id`);
    this.element(3, 'Name', c.name, `${path}.name`);
    this.element(3, 'CourseFamily', c.courseFamily, `${path}.courseFamily`);
    this.numberElement(3, 'Length', c.length, `${path}.length`);
    this.numberElement(3, 'Climb', c.climb, `${path}.climb`);
    c.controls.forEach((cc, i) => this.courseControl(cc, `${path}.controls[${i}]`));
    this.line(2, '</Course>');
  }

  private courseControl(cc: CourseControl, path: string): void {
    this.line(3, `<CourseControl type="${cc.type}">`);
    this.element(4, 'Control', cc.controlId, `${path}.controlId`);
    this.element(4, 'MapText', cc.mapText, `${path}.mapText`);
    this.numberElement(4, 'LegLength', cc.legLength, `${path}.legLength`);
    this.numberElement(4, 'Score', cc.score, `${path}.score`);
    this.line(3, '</CourseControl>');
  }

  private assignment(a: ClassCourseAssignment, path: string): void {
    this.line(2, '<ClassCourseAssignment>');
    this.element(3, 'ClassId', a.classId, `${path}.classId`);
    this.element(3, 'ClassName', this.includeClassNames ? (a.className ?? '') : '', `${path}.className`);
    a.allowedOnLegs?.forEach((leg, i) =>
      this.line(3, `<AllowedOnLeg>${this.int(leg, `${path}.allowedOnLegs[${i}]`)}</AllowedOnLeg>`),
    );
    // An empty course name means the class runs a whole course family (see parseCourseData).
    this.element(3, 'CourseName', a.courseName === '' ? undefined : a.courseName, `${path}.courseName`);
    this.element(3, 'CourseFamily', a.courseFamily, `${path}.courseFamily`);
    this.line(2, '</ClassCourseAssignment>');
  }
}

type WritableMap = MapInfo & { scale: number; mapPositionTopLeft: MapPosition; mapPositionBottomRight: MapPosition };

function isWritableMap(m: MapInfo): m is WritableMap {
  return m.scale !== undefined && m.mapPositionTopLeft !== undefined && m.mapPositionBottomRight !== undefined;
}
