/**
 * The course check's data in the shapes the pictures draw (`pictures/course-map.ts`, `pictures/course-check-page.ts`):
 * each course's controls on both sides placed in one metric plane, the moves the comparison found, a fitted
 * georeferencing difference, and the class-to-course table.
 *
 * The plane is the service's grid when the comparison was made in one (so the picture measures what the check
 * measured), else a local transverse Mercator centred on the controls. Controls are matched as the comparison matches
 * them: codes written one way (`031` is `31`), and a start or finish that only its code tells apart taken as one.
 */
import type { LatLng } from '../geo/distance.js';
import { localPlane, type PlanePoint } from '../geo/local-plane.js';
import { getProjection, type Projection } from '../geo/projection.js';
import { withControlCodes, withNormalisedControlCodes } from '../iof/course-controls.js';
import { isDegrees } from '../iof/course-projection.js';
import { pairStartsAndFinishes } from '../iof/compare-courses/controls.js';
import { foldName } from '../iof/compare-courses/courses.js';
import type { CourseComparison, GeoreferenceFit } from '../iof/compare-courses/types.js';
import type { Control, Course, RaceCourseData } from '../iof/model.js';
import type { ClassRow } from '../pictures/course-check-page.js';
import type { CourseMapInput, MapControl, MapControlKind, MapFit } from '../pictures/course-map.js';

export interface CourseCheckPicturesInput {
  organiser: RaceCourseData;
  service: RaceCourseData;
  comparison: CourseComparison;
  /** As the comparison was asked for: the grid the service's positions are in, the organiser's grid, the tolerance. */
  serviceProjection?: number | string;
  organiserProjection?: number | string;
  toleranceM: number;
}

export interface CourseCheckPictures {
  courses: CourseMapInput[];
  classes: ClassRow[];
}

/** A side's position in the plane, or null when it has none that can be placed. */
type Placer = (c: Control | undefined) => PlanePoint | null;

export function courseCheckPictures(input: CourseCheckPicturesInput): CourseCheckPictures {
  const organiser = withNormalisedControlCodes(input.organiser);
  const service = aliased(organiser, withNormalisedControlCodes(input.service));
  const { plane, place } = placers(organiser, service, input);
  const moved = new Map(
    input.comparison.findings
      .filter((f) => f.kind === 'control_moved' && f.control !== undefined && f.distanceM !== undefined)
      .map((f) => [f.control!, f.distanceM!]),
  );
  const fit = mapFit(input.comparison.georeference, organiser, service, place);
  const svcCourses = new Map(service.courses.map((c) => [foldName(c.name), c]));
  const orgKeys = new Set(organiser.courses.map((c) => foldName(c.name)));
  const pairs: Array<{ name: string; o?: Course | undefined; s?: Course | undefined }> = [
    ...organiser.courses.map((o) => ({ name: o.name, o, s: svcCourses.get(foldName(o.name)) })),
    ...service.courses.filter((s) => !orgKeys.has(foldName(s.name))).map((s) => ({ name: s.name, s })),
  ];
  const courses = pairs.map(({ name, o, s }): CourseMapInput => {
    const course: CourseMapInput = {
      name,
      controls: courseControls(o, s, organiser, service, place, moved),
      toleranceM: input.toleranceM,
      plane,
    };
    if (o) course.organiserSequence = o.controls.map((cc) => cc.controlId);
    if (s) course.serviceSequence = s.controls.map((cc) => cc.controlId);
    if (fit) course.fit = fit;
    return course;
  });
  return { courses, classes: classRows(input.organiser, input.comparison) };
}

/** The service's race with a start or finish the comparison took as the organiser's under another code renamed. */
function aliased(organiser: RaceCourseData, service: RaceCourseData): RaceCourseData {
  const alias = pairStartsAndFinishes(organiser, service, { findings: [], notes: [] });
  if (alias.size === 0) return service;
  return withControlCodes(service, (code) => alias.get(code) ?? code);
}

/** 0°, 0° is what some programs write for a map without georeference: no position at all. */
function positionOf(c: Control | undefined): LatLng | undefined {
  const p = c?.position;
  return p === undefined || (p.lat === 0 && p.lng === 0) ? undefined : { lat: p.lat, lng: p.lng };
}

/**
 * How each side's positions reach the plane. The organiser's are degrees, or grid metres read with its projection;
 * the service's are degrees, or metres in the grid it was asked for. Anything that will not convert is not drawn.
 */
function placers(
  organiser: RaceCourseData,
  service: RaceCourseData,
  input: CourseCheckPicturesInput,
): { plane: string; place: Record<'organiser' | 'service', Placer> } {
  const orgGrid = input.organiserProjection === undefined ? undefined : getProjection(input.organiserProjection);
  const svcGrid = input.serviceProjection === undefined ? undefined : getProjection(input.serviceProjection);
  const orgDegrees = (p: LatLng): LatLng | undefined => {
    if (isDegrees(p)) return p;
    if (orgGrid === undefined) return undefined;
    const d = orgGrid.inverse({ easting: p.lng, northing: p.lat });
    return isDegrees(d) ? d : undefined;
  };
  const guarded =
    (fn: (p: LatLng) => PlanePoint | undefined): Placer =>
    (c) => {
      const p = positionOf(c);
      if (p === undefined) return null;
      try {
        return fn(p) ?? null;
      } catch {
        return null;
      }
    };
  if (svcGrid !== undefined) {
    return {
      plane: gridName(svcGrid),
      place: {
        organiser: guarded((p) => {
          // The same grid on both sides: taken as it is, as the comparison does.
          if (orgGrid !== undefined && orgGrid.definition === svcGrid.definition && !isDegrees(p)) {
            return { x: p.lng, y: p.lat };
          }
          const d = orgDegrees(p);
          if (d === undefined) return undefined;
          const { easting, northing } = svcGrid.forward(d);
          return { x: easting, y: northing };
        }),
        service: guarded((p) => ({ x: p.lng, y: p.lat })),
      },
    };
  }
  const degrees: LatLng[] = [];
  for (const c of organiser.controls) {
    const p = positionOf(c);
    const d = p && orgDegrees(p);
    if (d) degrees.push(d);
  }
  for (const c of service.controls) {
    const p = positionOf(c);
    if (p && isDegrees(p)) degrees.push(p);
  }
  if (degrees.length === 0)
    return { plane: 'no plane (no positions)', place: { organiser: () => null, service: () => null } };
  const local = localPlane(degrees);
  return {
    plane: 'a local transverse Mercator plane',
    place: {
      organiser: guarded((p) => {
        const d = orgDegrees(p);
        return d === undefined ? undefined : local.toPlane(d);
      }),
      service: guarded((p) => (isDegrees(p) ? local.toPlane(p) : undefined)),
    },
  };
}

function gridName(p: Projection): string {
  return p.epsg === undefined ? p.name : `EPSG:${p.epsg} (${p.name})`;
}

function kindOf(c: Control | undefined, type: Control['type'] | undefined): MapControlKind {
  const t = c?.type === 'Start' || c?.type === 'Finish' ? c.type : type;
  return t === 'Start' ? 'start' : t === 'Finish' ? 'finish' : 'control';
}

/** Every control either course visits: the organiser's order, then what only the service's course visits. */
function courseControls(
  o: Course | undefined,
  s: Course | undefined,
  organiser: RaceCourseData,
  service: RaceCourseData,
  place: Record<'organiser' | 'service', Placer>,
  moved: ReadonlyMap<string, number>,
): MapControl[] {
  const orgDefs = new Map(organiser.controls.map((c) => [c.id, c]));
  const svcDefs = new Map(service.controls.map((c) => [c.id, c]));
  const types = new Map([...(s?.controls ?? []), ...(o?.controls ?? [])].map((cc) => [cc.controlId, cc.type]));
  const orgCodes = new Set(o?.controls.map((cc) => cc.controlId));
  const svcCodes = new Set(s?.controls.map((cc) => cc.controlId));
  const codes = [...new Set([...orgCodes, ...svcCodes])];
  return codes.map((code) => {
    const control: MapControl = { code, kind: kindOf(orgDefs.get(code) ?? svcDefs.get(code), types.get(code)) };
    if (orgCodes.has(code)) control.organiser = place.organiser(orgDefs.get(code));
    if (svcCodes.has(code)) control.service = place.service(svcDefs.get(code));
    const d = moved.get(code);
    if (d !== undefined) control.movedM = d;
    return control;
  });
}

/**
 * The fit as the map draws it, when it explains the differences: its centre is where the organiser's matched controls
 * are on average (the centre the transform turns about).
 */
function mapFit(
  fit: GeoreferenceFit | undefined,
  organiser: RaceCourseData,
  service: RaceCourseData,
  place: Record<'organiser' | 'service', Placer>,
): MapFit | undefined {
  if (fit === undefined || !fit.explains) return undefined;
  const svcDefs = new Map(service.controls.map((c) => [c.id, c]));
  // Only controls some course visits, as the comparison (and so the fit) takes them.
  const used = new Set([...organiser.courses, ...service.courses].flatMap((c) => c.controls.map((cc) => cc.controlId)));
  const points: PlanePoint[] = [];
  for (const c of organiser.controls) {
    if (!used.has(c.id)) continue;
    const p = place.organiser(c);
    if (p !== null && place.service(svcDefs.get(c.id)) !== null) points.push(p);
  }
  if (points.length === 0) return undefined;
  return {
    centre: {
      x: points.reduce((sum, p) => sum + p.x, 0) / points.length,
      y: points.reduce((sum, p) => sum + p.y, 0) / points.length,
    },
    shiftEastM: fit.shiftEastM,
    shiftNorthM: fit.shiftNorthM,
    rotationDeg: fit.rotationDeg,
    scale: fit.scale,
    message: fit.message,
    residuals: fit.residuals,
  };
}

/**
 * The organiser's classes with the courses they run on each side, then the classes only the service has: the
 * comparison's class findings say which differ, so the table and the report never disagree.
 */
function classRows(organiser: RaceCourseData, comparison: CourseComparison): ClassRow[] {
  const findings = new Map(
    comparison.findings.filter((f) => f.class !== undefined).map((f) => [foldName(f.class!), f] as const),
  );
  const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
  const rows = new Map<string, ClassRow>();
  for (const a of organiser.classAssignments) {
    if (a.className === undefined || a.className.trim() === '') continue;
    const key = foldName(a.className);
    const row = rows.get(key);
    const course = a.courseName !== '' ? a.courseName : (a.courseFamily ?? '');
    if (row) {
      if (course !== '' && !row.organiser.includes(course)) (row.organiser as string[]).push(course);
      continue;
    }
    rows.set(key, { className: a.className, organiser: course === '' ? [] : [course], service: [], status: 'same' });
  }
  if (rows.size === 0) return [];
  for (const [key, row] of rows) {
    const f = findings.get(key);
    if (f?.kind === 'class_missing_on_service') row.status = 'missing_on_service';
    else if (f?.kind === 'class_course_changed') {
      row.status = 'changed';
      row.service = asList(f.service);
    } else row.service = row.organiser;
  }
  for (const f of comparison.findings) {
    if (f.kind !== 'class_missing_in_organiser' || f.class === undefined) continue;
    rows.set(`service:${foldName(f.class)}`, {
      className: f.class,
      organiser: [],
      service: asList(f.service),
      status: 'missing_in_organiser',
    });
  }
  return [...rows.values()];
}
