/**
 * What the importable-event tests publish: a real course file from ../shared/realdata (OCAD 11's Ellenbrook courses,
 * WGS 84 positions), optionally edited, with class assignments added (the file has none), a generated PNG for the map,
 * and the importable-event object that names them with the map's corners around the controls.
 */
import type { ImportableEventInput } from '../../src/resources/importable-event-schemas.js';
import type { UploadFile } from '../../src/resources/importable-events.js';
import { realdata } from './files.js';
import { pngImage } from './map-images.js';

export const COURSE_FILE = 'CourseData.xml';
export const MAP_FILE = 'map.png';
export const MAP_SIZE = { width: 120, height: 90 };

const OCAD = new TextDecoder().decode(realdata('iof3/rg2_ellenbrook_CourseData_OCAD11.xml'));

/** The classes the test's course file assigns, by course. */
export const CLASS_ASSIGNMENTS: ReadonlyArray<[className: string, course: string]> = [
  ['M21', 'Orange'],
  ['W21', 'Orange'],
  ['M16', 'Yellow'],
];

export interface CourseFileEdits {
  /** Moves a control: its id and its new `lat` (the lng is kept). */
  moveControl?: { id: string; lat: number };
  /** Appends a course of the start and one control. */
  tinyCourse?: boolean;
  /** Puts an element the schema does not allow into the Event. */
  schemaInvalid?: boolean;
}

/** The course file as text, with class assignments and the edits asked for. */
export function courseFile(edits: CourseFileEdits = {}): string {
  let xml = OCAD;
  const assignments = CLASS_ASSIGNMENTS.map(
    ([cls, course]) =>
      `    <ClassCourseAssignment><ClassName>${cls}</ClassName><CourseName>${course}</CourseName></ClassCourseAssignment>\n`,
  ).join('');
  const tiny = edits.tinyCourse
    ? '    <Course><Name>Tiny</Name><CourseControl type="Start"><Control>S1</Control></CourseControl>' +
      '<CourseControl type="Control"><Control>101</Control></CourseControl></Course>\n'
    : '';
  xml = xml.replace('  </RaceCourseData>', `${tiny}${assignments}  </RaceCourseData>`);
  if (edits.moveControl) {
    const { id, lat } = edits.moveControl;
    xml = xml.replace(
      new RegExp(`(<Id>${id}</Id>\\s*<Position lng="[^"]+" lat=")[^"]+"`),
      (_m, head: string) => `${head}${lat}"`,
    );
  }
  if (edits.schemaInvalid) xml = xml.replace('<Name>Event</Name>', '<Name>Event</Name><Bogus/>');
  return xml;
}

/** WGS 84 positions of the file's controls. */
export function controlPositions(xml: string): Array<{ lat: number; lng: number }> {
  return [...xml.matchAll(/<Position lng="([^"]+)" lat="([^"]+)"/g)].map((m) => ({
    lat: Number(m[2]),
    lng: Number(m[1]),
  }));
}

/** The map's corners: the controls' box with a margin (`margin` < 0 shrinks it, leaving controls outside). */
export function cornersAround(xml: string, margin = 0.002) {
  const ps = controlPositions(xml);
  const lat = ps.map((p) => p.lat);
  const lng = ps.map((p) => p.lng);
  const [s, n, w, e] = [
    Math.min(...lat) - margin,
    Math.max(...lat) + margin,
    Math.min(...lng) - margin,
    Math.max(...lng) + margin,
  ];
  return boxMapping({ s, n, w, e }, MAP_SIZE);
}

/** The coordinate mapping of an image of `size` pixels covering the box `s..n` x `w..e` (degrees). */
export function boxMapping(
  box: { s: number; n: number; w: number; e: number },
  size: { width: number; height: number },
) {
  const { s, n, w, e } = box;
  const { width: W, height: H } = size;
  return {
    positions: [
      { latitude: s, longitude: w },
      { latitude: s, longitude: e },
      { latitude: n, longitude: e },
      { latitude: n, longitude: w },
    ],
    imagePositions: [
      { x: 0, y: H },
      { x: W, y: H },
      { x: W, y: 0 },
      { x: 0, y: 0 },
    ],
  };
}

/** The importable-event object for `xml`, its map georeferenced around the controls unless told otherwise. */
export function importableEvent(
  xml: string,
  options: { name?: string; georeferenced?: boolean; margin?: number } = {},
): ImportableEventInput {
  return {
    name: options.name ?? 'Ellenbrook Saturday Series',
    timeInterval: { start: '2026-06-13T10:00:00Z', end: '2026-06-13T14:00:00Z' },
    maps: [
      {
        fileName: MAP_FILE,
        name: 'Ellenbrook',
        mapScale: 10000,
        georeference:
          options.georeferenced === false ? null : { coordinateMapping: cornersAround(xml, options.margin) },
      },
    ],
    courseDataFileNames: [COURSE_FILE],
  };
}

/** The files the object names. */
export function uploads(xml: string): UploadFile[] {
  return [
    { name: COURSE_FILE, bytes: new TextEncoder().encode(xml) },
    { name: MAP_FILE, bytes: pngImage(MAP_SIZE.width, MAP_SIZE.height) },
  ];
}
