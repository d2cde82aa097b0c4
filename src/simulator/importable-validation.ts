/**
 * What the simulated service finds wrong with an importable event, computed for real from the object and the files
 * uploaded: a named file not uploaded, a course file not valid against IOF.xsd (the project's own validator) or not
 * readable as CourseData, a course with fewer than two controls, a map without georeference or whose file is no
 * image, a control outside every georeferenced map. The real service's checks and wording are unknown (guess): these
 * are the ones a person publishing courses needs to hear about before the browser step.
 */
import type { CourseData, RaceCourseData } from '../iof/model.js';
import { parseCourseData } from '../iof/read-course-data.js';
import { validate } from '../iof/validate/validate.js';
import type { ImportableEventMap } from '../resources/importable-event-schemas.js';
import type { SimImportableEvent } from './importable-store.js';

export interface SimValidation {
  errors: string[];
  warnings: string[];
  /** The course files that were read, by name, for the import. */
  courses: Map<string, CourseData>;
}

/** Validation messages per course file at most: a broken file says enough in ten. */
const MAX_SCHEMA_MESSAGES = 10;

export async function validateImportable(event: SimImportableEvent): Promise<SimValidation> {
  const result: SimValidation = { errors: [], warnings: [], courses: new Map() };
  const o = event.object;
  const named = [...o.courseDataFileNames, ...o.maps.map((m) => m.fileName), ...(o.courseImageFileNames ?? [])];
  for (const name of new Set(named)) {
    if (!event.files.has(name))
      result.errors.push(`The file '${name}' named by the importable event was not uploaded.`);
  }
  for (const name of o.courseDataFileNames) {
    const bytes = event.files.get(name);
    if (bytes) await checkCourseFile(name, bytes, o.maps, result);
  }
  for (const map of o.maps) checkMap(map, event.files.get(map.fileName), result);
  checkControlsInside(o.maps, result);
  return result;
}

async function checkCourseFile(
  name: string,
  bytes: Uint8Array,
  maps: readonly ImportableEventMap[],
  result: SimValidation,
): Promise<void> {
  try {
    const checked = await validate(bytes, { name });
    if (checked.valid === false) {
      const messages = checked.errors.slice(0, MAX_SCHEMA_MESSAGES).map((i) => `line ${i.line ?? '?'}: ${i.message}`);
      result.errors.push(`The course file '${name}' is not valid against IOF.xsd: ${messages.join('; ')}`);
      return;
    }
    if (checked.valid === null || checked.version !== '3.0') {
      result.errors.push(`The course file '${name}' is not IOF XML 3.0 (version ${checked.version}).`);
      return;
    }
  } catch (err) {
    // No IOF.xsd where the simulator runs: the file is still read, and the person told it was not checked.
    result.warnings.push(`The course file '${name}' was not checked against IOF.xsd: ${(err as Error).message}`);
  }
  let data: CourseData;
  try {
    data = parseCourseData(bytes, name);
  } catch (err) {
    result.errors.push(`The course file '${name}' cannot be read as CourseData: ${(err as Error).message}`);
    return;
  }
  data = { ...data, races: data.races.map((race) => placeControls(race, maps)) };
  result.courses.set(name, data);
  for (const race of data.races) {
    for (const course of race.courses) {
      const controls = course.controls.filter((c) => c.type === 'Control').length;
      if (controls < 2) {
        result.errors.push(`The course '${course.name}' in '${name}' has ${controls} control(s); a course needs two.`);
      }
    }
  }
}

/** Magic numbers of the map images the API takes (PNG, JPEG, GIF, TIFF). */
function isImage(b: Uint8Array): boolean {
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  return (
    starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a) ||
    starts(0xff, 0xd8, 0xff) ||
    starts(0x47, 0x49, 0x46, 0x38) ||
    starts(0x49, 0x49, 0x2a, 0x00) ||
    starts(0x4d, 0x4d, 0x00, 0x2a)
  );
}

function checkMap(map: ImportableEventMap, bytes: Uint8Array | undefined, result: SimValidation): void {
  if (!map.georeference) {
    result.errors.push(`The map '${map.name || map.fileName}' has no georeference: give its corners or a world file.`);
  }
  if (bytes && !isImage(bytes)) {
    result.errors.push(`The map file '${map.fileName}' is not a PNG, JPEG, GIF or TIFF image.`);
  }
}

/**
 * Every control with a geographic position must lie inside a georeferenced map's corners (a control outside is the
 * usual sign of a wrong grid). The corners are compared on a plane scaled by the cosine of their latitude: a map spans
 * kilometres, where that is exact enough to say inside or out.
 */
function checkControlsInside(maps: readonly ImportableEventMap[], result: SimValidation): void {
  const quads = maps.flatMap((m) => (m.georeference ? [m.georeference.coordinateMapping.positions] : []));
  if (quads.length === 0) return;
  for (const [file, data] of result.courses) {
    for (const race of data.races) {
      for (const control of race.controls) {
        const p = control.position;
        if (!p) continue;
        if (!quads.some((q) => insideQuad(q, p.lat, p.lng))) {
          result.errors.push(
            `The control '${control.id}' of '${file}' (${p.lat}, ${p.lng}) lies outside the georeferenced map.`,
          );
        }
      }
    }
  }
}

export function insideQuad(
  corners: ReadonlyArray<{ latitude: number; longitude: number }>,
  lat: number,
  lng: number,
): boolean {
  const k = Math.cos((corners[0]!.latitude * Math.PI) / 180);
  const pts = corners.map((c) => [c.longitude * k, c.latitude] as const);
  const x = lng * k;
  let sign = 0;
  for (let i = 0; i < pts.length; i++) {
    const [ax, ay] = pts[i]!;
    const [bx, by] = pts[(i + 1) % pts.length]!;
    const cross = (bx - ax) * (lat - ay) - (by - ay) * (x - ax);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/**
 * Controls that have only a map position (Purple Pen writes no geographic one) placed on the ground through the first
 * map with a georeference and a paper extent: the position's share of the extent (millimetres, the extent in metres of
 * paper [client]) between the four corners. Guess: the real service places such controls from the map somehow; this
 * is the plain reading of the object's fields. Controls that cannot be placed stay without a position.
 */
function placeControls(race: RaceCourseData, maps: readonly ImportableEventMap[]): RaceCourseData {
  const map = maps.find((m) => m.georeference && m.bottomLeftCornerPosition && m.topRightCornerPosition);
  if (!map || race.controls.every((c) => c.position || !c.mapPosition)) return race;
  const bl = map.bottomLeftCornerPosition!;
  const tr = map.topRightCornerPosition!;
  const [gBL, gBR, gTR, gTL] = map.georeference!.coordinateMapping.positions;
  if (tr.x === bl.x || tr.y === bl.y) return race;
  return {
    ...race,
    controls: race.controls.map((c) => {
      if (c.position || !c.mapPosition || c.mapPosition.unit !== 'mm') return c;
      const u = (c.mapPosition.x / 1000 - bl.x) / (tr.x - bl.x);
      const v = (c.mapPosition.y / 1000 - bl.y) / (tr.y - bl.y);
      const at = (f: (p: { latitude: number; longitude: number }) => number) =>
        (1 - u) * (1 - v) * f(gBL!) + u * (1 - v) * f(gBR!) + u * v * f(gTR!) + (1 - u) * v * f(gTL!);
      return { ...c, position: { lat: at((p) => p.latitude), lng: at((p) => p.longitude) } };
    }),
  };
}
