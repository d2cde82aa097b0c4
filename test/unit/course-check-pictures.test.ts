/**
 * The course check's data mapped into the shapes the pictures draw: both sides' positions in one plane whatever grid
 * each file writes, controls matched as the comparison matches them, moves and the class table from its findings.
 */
import { describe, expect, it } from 'vitest';
import { getProjection } from '../../src/geo/projection.js';
import { compareCourses } from '../../src/iof/compare-courses/compare.js';
import { projectCourseData } from '../../src/iof/course-projection.js';
import type { RaceCourseData } from '../../src/iof/model.js';
import { courseCheckPictures } from '../../src/jobs/course-check-pictures.js';
import { drawCourseMap } from '../../src/pictures/course-map.js';
import { textWidth } from '../../src/pictures/labels.js';
import { heartwoodDegrees, moveControls, regeoreference } from '../helpers/georeference.js';

const race = (): RaceCourseData => heartwoodDegrees().races[0]!;

describe('course check pictures', () => {
  it("puts an organiser file in grid metres and a service in degrees at the same places in the service's grid", () => {
    const organiser = projectCourseData(heartwoodDegrees(), 27700).races[0]!;
    const service = race();
    const comparison = compareCourses(organiser, service, { organiserProjection: 27700, serviceProjection: 27700 });
    // The service's positions as the service answers with --epsg: grid metres.
    const inGrid = projectCourseData(heartwoodDegrees(), 27700).races[0]!;
    const pictures = courseCheckPictures({
      organiser,
      service: inGrid,
      comparison,
      organiserProjection: 27700,
      serviceProjection: 27700,
      toleranceM: 10,
    });
    const first = pictures.courses[0]!;
    expect(first.plane).toBe('EPSG:27700 (OSGB36 / British National Grid)');
    const bng = getProjection(27700);
    const c = first.controls.find((x) => x.kind === 'control')!;
    const degrees = service.controls.find((x) => x.id === c.code)!.position!;
    const { easting, northing } = bng.forward(degrees);
    expect(c.organiser!.x).toBeCloseTo(easting, 1);
    expect(c.organiser!.y).toBeCloseTo(northing, 1);
    expect(c.service!.x).toBeCloseTo(easting, 1);
    expect(c.service!.y).toBeCloseTo(northing, 1);
  });

  it('reads an organiser grid into the local plane beside a service in degrees', () => {
    const organiser = projectCourseData(heartwoodDegrees(), 27700).races[0]!;
    const service = race();
    const comparison = compareCourses(organiser, service, { organiserProjection: 27700 });
    const pictures = courseCheckPictures({
      organiser,
      service,
      comparison,
      organiserProjection: 27700,
      toleranceM: 10,
    });
    expect(pictures.courses[0]!.plane).toBe('a local transverse Mercator plane');
    for (const c of pictures.courses.flatMap((course) => course.controls)) {
      expect(Math.hypot(c.organiser!.x - c.service!.x, c.organiser!.y - c.service!.y)).toBeLessThan(0.05);
    }
  });

  it('matches padded codes and a start under another code as the comparison does, and carries its moves', () => {
    const organiser = race();
    const service = structuredClone(organiser);
    const start = service.controls.find((c) => c.type === 'Start')!;
    const oldStart = start.id;
    start.id = 'S9';
    for (const course of service.courses) {
      for (const cc of course.controls) if (cc.controlId === oldStart) cc.controlId = 'S9';
    }
    // The service pads codes, and has one control 0.0005° farther north (about 56 m).
    const moved = service.controls.find((c) => c.type === 'Control')!;
    moved.position = { lat: moved.position!.lat + 0.0005, lng: moved.position!.lng };
    const movedCode = moved.id;
    for (const c of service.controls) if (/^\d+$/.test(c.id)) c.id = `0${c.id}`;
    for (const course of service.courses) {
      for (const cc of course.controls) if (/^\d+$/.test(cc.controlId)) cc.controlId = `0${cc.controlId}`;
    }
    const comparison = compareCourses(organiser, service);
    const pictures = courseCheckPictures({ organiser, service, comparison, toleranceM: 10 });
    const controls = pictures.courses.flatMap((c) => c.controls);
    // Every control on both sides: no "missing" start, no padded code left unmatched.
    expect(controls.every((c) => c.organiser && c.service)).toBe(true);
    expect(controls.filter((c) => c.kind === 'start').map((c) => c.code)).toContain(oldStart);
    const m = controls.find((c) => c.code === movedCode)!;
    expect(m.movedM).toBeGreaterThan(50);
    expect(Math.hypot(m.service!.x - m.organiser!.x, m.service!.y - m.organiser!.y)).toBeCloseTo(m.movedM!, 0);
  });

  it('lists the classes with their courses on both sides, a changed one with the service course', () => {
    const organiser = race();
    organiser.classAssignments = [
      { className: 'M21', courseName: organiser.courses[0]!.name },
      { className: 'W21', courseName: organiser.courses[1]!.name },
    ];
    const service = structuredClone(organiser);
    service.classAssignments = [
      { className: 'M21', courseName: organiser.courses[0]!.name },
      { className: 'W21', courseName: organiser.courses[2]!.name },
      { className: 'M10', courseName: organiser.courses[3]!.name },
    ];
    const comparison = compareCourses(organiser, service);
    const { classes } = courseCheckPictures({ organiser, service, comparison, toleranceM: 10 });
    expect(classes).toEqual([
      {
        className: 'M21',
        organiser: [organiser.courses[0]!.name],
        service: [organiser.courses[0]!.name],
        status: 'same',
      },
      {
        className: 'W21',
        organiser: [organiser.courses[1]!.name],
        service: [organiser.courses[2]!.name],
        status: 'changed',
      },
      { className: 'M10', organiser: [], service: [organiser.courses[3]!.name], status: 'missing_in_organiser' },
    ]);
  });
});

/** Pairs of labels in a drawing whose boxes (as the placing estimated them) overlap. */
function overlappingLabels(svg: string): string[] {
  const boxes = [
    ...svg.matchAll(/<text x="([-\d.]+)" y="([-\d.]+)"[^>]*?(font-weight="bold" )?stroke="#fff"[^>]*>([^<]+)<\/text>/g),
  ].map((m) => ({
    text: m[4]!,
    x: Number(m[1]),
    y: Number(m[2]) - 13 * 0.82,
    w: textWidth(m[4]!, 13, !!m[3]),
    h: 13 * 1.1,
  }));
  const pairs: string[] = [];
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
      if (!apart) pairs.push(`${a.text}/${b.text}`);
    }
  }
  return pairs;
}

describe('labels on a real course file', () => {
  it('keep apart on every Heartwood course; with the map shifted (two labels a control) at most one pair touches', () => {
    const organiser = race();
    const shifted = moveControls(regeoreference(organiser, { eastM: 28, northM: 28, rotationDeg: 0.3, noiseM: 1 }), {
      '173': [25, 20],
    });
    const overlaps = (service: RaceCourseData): string[] => {
      const comparison = compareCourses(organiser, service);
      const { courses } = courseCheckPictures({ organiser, service, comparison, toleranceM: 10 });
      expect(courses.length).toBe(4);
      return courses.flatMap((c) => overlappingLabels(drawCourseMap(c)));
    };
    expect(overlaps(organiser)).toEqual([]);
    expect(overlaps(shifted).length).toBeLessThanOrEqual(1);
  });
});
