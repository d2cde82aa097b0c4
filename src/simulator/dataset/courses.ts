/**
 * Courses of a generated event, drawn from a random stream of their own (seed and event id), so that they can be
 * built lazily on first read and drawing them never shifts what the events draw. Controls are placed on a plane around
 * the event position, shared between courses the way a course setter reuses sites, then turned into positions.
 */
import { destination, distanceM, type LatLng } from '../../geo/distance.js';
import type { ClassCourseAssignment, Control, Course, CourseControl, RaceCourseData } from '../../iof/model.js';
import type { SimClass } from '../model.js';
import { Random } from '../random.js';
import type { Discipline, Level } from './profiles/profile.js';
import { round, type ClassPlan } from './series.js';

/** Stream labels for `Random.derive`, so that drawing courses never shifts what the events draw. */
const STREAM_COURSES = 0xc0_75e5;

export interface CoursePlan {
  seed: number;
  eventId: number;
  discipline: Discipline;
  level: Level;
  position: LatLng;
  climbPerKm: readonly [number, number];
  courseNames: (r: Random, count: number) => string[];
  /** The event's classes (a copy of the array) and, index for index, what they were generated from. */
  classes: readonly SimClass[];
  specs: readonly ClassPlan[];
}

interface PlannedClass {
  id: number;
  name: string;
  shortName?: string;
  plan: ClassPlan;
}

/** Length in metres of the longest course (factor 1), by discipline and event size. */
function longestCourseM(discipline: Discipline, level: Level): number {
  switch (discipline) {
    case 'Sprint':
      return level === 'big' ? 4300 : 3800;
    case 'Middle':
      return level === 'big' ? 6500 : 5500;
    case 'Long':
      return level === 'big' ? 14_000 : level === 'medium' ? 11_000 : 8000;
    case 'Night':
      return level === 'big' ? 9000 : 7000;
    case 'Relay':
      return level === 'big' ? 9000 : 7000;
  }
}

/** Typical leg length in metres: many short legs in a sprint, long route choices in a long-distance race. */
function typicalLegM(discipline: Discipline, level: Level): number {
  switch (discipline) {
    case 'Sprint':
      return 200;
    case 'Middle':
      return 330;
    case 'Long':
      return level === 'big' ? 650 : 500;
    case 'Night':
      return 450;
    case 'Relay':
      return 420;
  }
}

interface CourseTarget {
  name: string;
  factor: number;
}

/**
 * Splits classes into 4-12 courses: classes with similar course lengths run the same course, as at real events
 * (H45 and D21 often share). Returns the courses, longest first, and each class's course.
 */
function individualCourseTargets(
  classes: readonly PlannedClass[],
  courseNames: CoursePlan['courseNames'],
  r: Random,
): { targets: CourseTarget[]; courseOf: Map<number, string> } {
  const courseOf = new Map<number, string>();
  const targets: CourseTarget[] = [];
  const shared = classes.filter((c) => !c.plan.ownCourse);
  for (const c of classes) {
    if (c.plan.ownCourse) {
      targets.push({ name: c.name, factor: c.plan.factor });
      courseOf.set(c.id, c.name);
    }
  }
  if (shared.length > 0) {
    const factors = [...new Set(shared.map((c) => c.plan.factor))].sort((a, b) => b - a);
    const k = Math.min(factors.length, Math.max(4, Math.min(12, Math.round(shared.length / 3.5))));
    const names = courseNames(r, k);
    const groupOfFactor = new Map<number, number>();
    factors.forEach((f, i) => groupOfFactor.set(f, Math.floor((i * k) / factors.length)));
    for (let g = 0; g < k; g++) {
      const first = factors.findIndex((_, i) => Math.floor((i * k) / factors.length) === g);
      targets.push({ name: names[g] ?? `${g + 1}`, factor: factors[first] ?? 0.5 });
    }
    for (const c of shared) courseOf.set(c.id, names[groupOfFactor.get(c.plan.factor) ?? 0] ?? '1');
  }
  return { targets, courseOf };
}

interface RelayGroup {
  classes: PlannedClass[];
  legs: number;
  factor: number;
}

/** One course per leg; classes with close lengths and the same number of legs share when there would be over 12. */
function relayGroups(classes: readonly PlannedClass[]): RelayGroup[] {
  const groups: RelayGroup[] = classes
    .map((c) => ({ classes: [c], legs: c.plan.legs ?? 3, factor: c.plan.factor }))
    .sort((a, b) => b.factor - a.factor);
  const total = (): number => groups.reduce((sum, g) => sum + g.legs, 0);
  while (total() > 12) {
    let best = -1;
    let bestGap = Infinity;
    for (let i = 0; i + 1 < groups.length; i++) {
      const a = groups[i] as RelayGroup;
      const b = groups[i + 1] as RelayGroup;
      if (a.legs === b.legs && a.factor - b.factor < bestGap) {
        best = i;
        bestGap = a.factor - b.factor;
      }
    }
    if (best < 0) break;
    const [a, b] = groups.splice(best, 2) as [RelayGroup, RelayGroup];
    groups.splice(best, 0, { classes: [...a.classes, ...b.classes], legs: a.legs, factor: a.factor });
  }
  return groups;
}

/** A point in metres east (x) and north (y) of the event position: course drawing is plane geometry. */
interface Xy {
  x: number;
  y: number;
}

const DEG = Math.PI / 180;

export function buildCourses(plan: CoursePlan): RaceCourseData {
  const r = Random.derive(plan.seed, plan.eventId, STREAM_COURSES);
  const { discipline, level } = plan;
  const scale =
    discipline === 'Sprint'
      ? 4000
      : discipline === 'Middle'
        ? 10_000
        : r.chance(discipline === 'Long' ? 0.6 : 0.3)
          ? 15_000
          : 10_000;
  const radius = discipline === 'Sprint' ? 1300 : discipline === 'Middle' ? 2200 : 3000;
  const legM = typicalLegM(discipline, level);
  const longest = longestCourseM(discipline, level);
  const minLength = discipline === 'Sprint' ? 1200 : 1800;
  const classes: PlannedClass[] = plan.classes.map((c, i) => ({
    id: c.id,
    name: c.name,
    ...(c.shortName === undefined ? {} : { shortName: c.shortName }),
    plan: plan.specs[i] ?? { name: c.name, factor: 1 },
  }));

  // Control codes 31-250 in random order; a course setter reuses a site when a course passes close to it, so courses
  // share controls the way real ones do.
  const codes = r.shuffle(Array.from({ length: 220 }, (_, i) => 31 + i));
  const sites: Xy[] = [];
  const polar = (angleDeg: number, distance: number, from: Xy): Xy => ({
    x: from.x + distance * Math.sin(angleDeg * DEG),
    y: from.y + distance * Math.cos(angleDeg * DEG),
  });
  const dist = (a: Xy, b: Xy): number => Math.hypot(a.x - b.x, a.y - b.y);
  const angleTo = (a: Xy, b: Xy): number => Math.atan2(b.x - a.x, b.y - a.y) / DEG;
  const start = polar(r.float(0, 360), r.float(0, 400), { x: 0, y: 0 });
  const finish = polar(r.float(0, 360), r.float(100, 400), start);

  /** Index of the site nearest `p` within `within` metres, not in `exclude`; -1 when none. */
  const nearestSite = (p: Xy, within: number, exclude: ReadonlySet<number>): number => {
    let best = -1;
    let bestD = within;
    for (let i = 0; i < sites.length; i++) {
      if (exclude.has(i)) continue;
      const d = dist(p, sites[i] as Xy);
      if (d < bestD) {
        best = i;
        bestD = d;
      }
    }
    return best;
  };

  const drawCourse = (name: string, factor: number): { name: string; sequence: number[] } => {
    const target = Math.max(minLength, longest * factor * r.float(0.92, 1.08));
    const count = Math.min(25, Math.max(6, Math.round(target / legM) - 1));
    const leg = target / (count + 1);
    const sequence: number[] = [];
    const inCourse = new Set<number>();
    let here = start;
    let heading = r.float(0, 360);
    for (let i = 0; i < count; i++) {
      const legsLeft = count - i + 1;
      const wanted = leg * r.float(0.6, 1.4);
      heading += r.float(-75, 75);
      let next = polar(heading, wanted, here);
      if (Math.hypot(next.x, next.y) > radius) {
        // Stay on the map: turn back towards the arena.
        heading = angleTo(here, { x: 0, y: 0 }) + r.float(-45, 45);
        next = polar(heading, wanted, here);
      }
      if (dist(next, finish) > (legsLeft - 1) * leg * 1.1) {
        // The runner must still reach the finish in the legs that are left: head home.
        heading = angleTo(here, finish) + r.float(-40, 40);
        next = polar(heading, Math.min(wanted, dist(here, finish)), here);
      }
      let site = nearestSite(next, Math.min(150, wanted * 0.3), inCourse);
      if (site < 0) {
        if (sites.length < codes.length) {
          site = sites.length;
          sites.push(next);
        } else {
          site = nearestSite(next, Infinity, inCourse);
        }
      }
      inCourse.add(site);
      sequence.push(site);
      here = sites[site] as Xy;
    }
    return { name, sequence };
  };

  const drawn: { name: string; sequence: number[] }[] = [];
  const classAssignments: ClassCourseAssignment[] = [];
  if (discipline === 'Relay') {
    for (const group of relayGroups(classes)) {
      const head = group.classes[0];
      const prefix = head?.shortName ?? head?.name ?? 'Relay';
      for (let leg = 1; leg <= group.legs; leg++) {
        const courseName = `${prefix}-${leg}`;
        // Legs of a relay differ in length around the class's standard.
        drawn.push(drawCourse(courseName, group.factor * r.float(0.8, 1.05)));
        for (const c of group.classes) {
          classAssignments.push({ classId: String(c.id), className: c.name, courseName, allowedOnLegs: [leg] });
        }
      }
    }
  } else {
    const { targets, courseOf } = individualCourseTargets(classes, plan.courseNames, r);
    for (const t of targets) drawn.push(drawCourse(t.name, t.factor));
    for (const c of classes) {
      classAssignments.push({
        classId: String(c.id),
        className: c.name,
        courseName: courseOf.get(c.id) ?? targets[0]?.name ?? '1',
      });
    }
  }

  // Geographic positions from the plane, then leg lengths from those positions, so that a reader recomputing legs
  // from the controls gets the same metres.
  const toLatLng = (p: Xy): LatLng =>
    roundPosition(destination(plan.position, angleTo({ x: 0, y: 0 }, p), Math.hypot(p.x, p.y)));
  const startPos = toLatLng(start);
  const finishPos = toLatLng(finish);
  const sitePos = sites.map(toLatLng);
  const [climbLow, climbHigh] = plan.climbPerKm;
  const terrain = discipline === 'Sprint' ? 0.3 : 1;
  const courses: Course[] = drawn.map(({ name, sequence }) => {
    const controls: CourseControl[] = [{ controlId: 'S1', type: 'Start' }];
    let previous = startPos;
    let length = 0;
    const addLeg = (controlId: string, type: CourseControl['type'], at: LatLng): void => {
      const legLength = Math.round(distanceM(previous, at));
      length += legLength;
      controls.push({ controlId, type, legLength });
      previous = at;
    };
    for (const index of sequence) addLeg(String(codes[index]), 'Control', sitePos[index] as LatLng);
    addLeg('F1', 'Finish', finishPos);
    const climb = Math.round(((length / 1000) * r.float(climbLow, climbHigh) * terrain) / 5) * 5;
    return { name, length, climb, numberOfControls: sequence.length, controls };
  });

  const controls: Control[] = [{ id: 'S1', type: 'Start', position: startPos }];
  const order = sitePos.map((_, i) => i).sort((a, b) => (codes[a] ?? 0) - (codes[b] ?? 0));
  for (const index of order)
    controls.push({ id: String(codes[index]), type: 'Control', position: sitePos[index] as LatLng });
  controls.push({ id: 'F1', type: 'Finish', position: finishPos });
  return { maps: [{ scale }], controls, courses, classAssignments };
}

function roundPosition(p: LatLng): LatLng {
  return { lat: round(p.lat, 6), lng: round(p.lng, 6) };
}
