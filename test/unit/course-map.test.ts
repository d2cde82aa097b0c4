/**
 * The course map and the course check page as pure functions: what is drawn for moved controls, controls on one side
 * only and a fitted georeferencing difference, that labels keep apart, and that the page stays self-contained.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localPlane, type PlanePoint } from '../../src/geo/local-plane.js';
import { courseCheckPage, type CourseCheckPageInput } from '../../src/pictures/course-check-page.js';
import {
  describeCourse,
  drawCourseMap,
  fitted,
  scaleLength,
  type CourseMapInput,
  type MapControl,
  type MapFit,
} from '../../src/pictures/course-map.js';
import { uniqueFileNames } from '../../src/pictures/file-names.js';
import { labelBoxes, textWidth } from '../../src/pictures/labels.js';
import { realdataPath } from '../helpers/files.js';

/** Ellenbrook's controls (a real OCAD export) in a local plane, by code, and its Yellow course's sequence. */
function ellenbrook(): { points: Map<string, PlanePoint>; yellow: string[] } {
  const xml = readFileSync(realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml'), 'utf8');
  const degrees = [...xml.matchAll(/<Id>(\w+)<\/Id>\s*<Position lng="([-\d.]+)" lat="([-\d.]+)"/g)].map(
    (m) => [m[1]!, { lat: Number(m[3]), lng: Number(m[2]) }] as const,
  );
  const plane = localPlane(degrees.map(([, d]) => d));
  const points = new Map(degrees.map(([code, d]) => [code, plane.toPlane(d)]));
  const yellowXml = xml.slice(xml.indexOf('<Name>Yellow</Name>'));
  const yellow = [...yellowXml.slice(0, yellowXml.indexOf('</Course>')).matchAll(/<Control>(\w+)<\/Control>/g)].map(
    (m) => m[1]!,
  );
  return { points, yellow };
}

function kind(code: string): MapControl['kind'] {
  return code.startsWith('S') ? 'start' : code.startsWith('F') ? 'finish' : 'control';
}

/** The course with the service's positions from `service` (default: the organiser's), and the moves given. */
function course(
  edit: {
    service?: (code: string, p: PlanePoint) => PlanePoint | undefined;
    moved?: Record<string, number>;
    fit?: MapFit;
  } = {},
): CourseMapInput {
  const { points, yellow } = ellenbrook();
  const controls = yellow.map((code): MapControl => {
    const p = points.get(code)!;
    const c: MapControl = { code, kind: kind(code), organiser: p };
    const s = edit.service ? edit.service(code, p) : p;
    if (s !== undefined) c.service = s;
    if (edit.moved?.[code] !== undefined) c.movedM = edit.moved[code];
    return c;
  });
  return {
    name: 'Yellow',
    organiserSequence: yellow,
    serviceSequence: yellow.filter((code) => controls.find((c) => c.code === code)!.service !== undefined),
    controls,
    toleranceM: 10,
    plane: 'a local transverse Mercator plane',
    ...(edit.fit ? { fit: edit.fit } : {}),
  };
}

function translateOf(svg: string, code: string, side: string): { x: number; y: number } {
  const m = new RegExp(
    `data-code="${code}" data-side="${side}"[^>]*transform="translate\\(([-\\d.]+) ([-\\d.]+)\\)"`,
  ).exec(svg);
  if (!m) throw new Error(`${code} (${side}) not drawn`);
  return { x: Number(m[1]), y: Number(m[2]) };
}

describe('the course map', () => {
  it('draws each side in its own shape at its position, north up, and no arrow when nothing moved', () => {
    const svg = drawCourseMap(course());
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 640 \d+"/);
    const per = Number(/data-metres-per-unit="([\d.e-]+)"/.exec(svg)![1]);
    const { points } = ellenbrook();
    const a = translateOf(svg, '101', 'organiser');
    const b = translateOf(svg, '105', 'organiser');
    const pa = points.get('101')!;
    const pb = points.get('105')!;
    expect(b.x - a.x).toBeCloseTo((pb.x - pa.x) / per, 0);
    // North is up: a control farther north is higher on the drawing.
    expect(b.y - a.y).toBeCloseTo(-(pb.y - pa.y) / per, 0);
    expect(svg).toMatch(/data-code="101" data-side="organiser"[^>]*><circle /);
    expect(svg).toMatch(/data-code="101" data-side="service"[^>]*><rect /);
    expect(svg).toMatch(/data-code="S1" data-side="organiser" data-kind="start"[^>]*><path /);
    expect(svg).toMatch(
      /data-code="F1" data-side="organiser" data-kind="finish"[^>]*><circle r="7"[^>]*\/><circle r="11"/,
    );
    expect(svg).not.toContain('class="move"');
    expect(svg).toContain('<g class="north"');
    expect(svg).toMatch(/<title id="map-title">Course Yellow: /);
  });

  it('draws an arrow from the organiser to the service for a moved control, with its distance', () => {
    const svg = drawCourseMap(
      course({ service: (code, p) => (code === '104' ? { x: p.x + 30, y: p.y + 30 } : p), moved: { '104': 42.4 } }),
    );
    const o = translateOf(svg, '104', 'organiser');
    const s = translateOf(svg, '104', 'service');
    const line = /<line class="move" data-code="104" x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"/.exec(
      svg,
    )!;
    expect([Number(line[1]), Number(line[2])]).toEqual([o.x, o.y]);
    expect([Number(line[3]), Number(line[4])]).toEqual([s.x, s.y]);
    expect(svg).toMatch(/>42.4 m<\/text>/);
    // Apart on the drawing: each symbol labelled in its side's colour.
    expect(svg.match(/>104<\/text>/g)).toHaveLength(2);
  });

  it('marks a control only one side visits on that side, and says which', () => {
    const svg = drawCourseMap(course({ service: (code, p) => (code === '103' ? undefined : p) }));
    expect(svg).toMatch(/data-code="103" data-side="organiser"/);
    expect(svg).not.toMatch(/data-code="103" data-side="service"/);
    expect(svg).toContain('>103 (not on the service)</text>');
  });

  it('does not mark every control of a course only one side has: the course is what is missing', () => {
    const { serviceSequence: _, ...rest } = course();
    const only: CourseMapInput = { ...rest, controls: rest.controls.map(({ service: _s, ...c }) => c) };
    const svg = drawCourseMap(only);
    expect(svg).not.toContain('(not on the service)');
    expect(svg).toContain('The service has no such course: only the organiser&#39;s side is drawn.');
    expect(svg).not.toMatch(/data-side="service"/);
  });

  it('with a fitted shift: one arrow at the centre, and per-control arrows only for what the shift leaves', () => {
    const { points } = ellenbrook();
    const all = [...points.values()];
    const centre = {
      x: all.reduce((s, p) => s + p.x, 0) / all.length,
      y: all.reduce((s, p) => s + p.y, 0) / all.length,
    };
    const fit: MapFit = {
      centre,
      shiftEastM: 28.3,
      shiftNorthM: 28.3,
      rotationDeg: 0.3,
      scale: 1,
      message: 'the whole map is shifted 40 m to the north-east and rotated 0.3°: a georeferencing difference',
      residuals: [{ control: '103', distanceM: 25 }],
    };
    const svg = drawCourseMap(
      course({
        service: (code, p) => {
          const f = fitted(fit, p);
          return code === '103' ? { x: f.x + 25, y: f.y } : f;
        },
        fit,
      }),
    );
    expect(svg.match(/<g class="fit">/g)).toHaveLength(1);
    expect(svg.match(/<line class="move"/g)).toHaveLength(1);
    expect(svg).toMatch(/<line class="move" data-code="103"/);
    expect(svg).toContain('>25 m</text>');
    expect(svg).toContain('>40 m, 0.3°</text>');
    expect(svg).toContain('>map shift, not to scale</text>');
    // The residual arrow starts where the shift puts the organiser's control, not at the organiser's control.
    const per = Number(/data-metres-per-unit="([\d.e-]+)"/.exec(svg)![1]);
    const line = /<line class="move" data-code="103" x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)"/.exec(svg)!;
    expect((Number(line[3]) - Number(line[1])) * per).toBeCloseTo(25, 0);
    expect(describeCourse(course({ fit }))).toContain('the whole map is shifted 40 m');
  });

  it('turns clockwise and shifts as the fit says', () => {
    const fit: MapFit = {
      centre: { x: 0, y: 0 },
      shiftEastM: 10,
      shiftNorthM: 0,
      rotationDeg: 90,
      scale: 2,
      message: '',
      residuals: [],
    };
    const p = fitted(fit, { x: 0, y: 1 });
    expect(p.x).toBeCloseTo(12, 9);
    expect(p.y).toBeCloseTo(0, 9);
  });

  it('keeps the labels of a real course apart from each other and from the symbols', () => {
    const svg = drawCourseMap(course());
    const boxes = [...svg.matchAll(/<text x="([-\d.]+)" y="([-\d.]+)"[^>]*paint-order="stroke">([^<]+)<\/text>/g)].map(
      (m) => ({ x: Number(m[1]), y: Number(m[2]) - 13 * 0.9, w: textWidth(m[3]!, 13), h: 13 * 1.1 }),
    );
    expect(boxes.length).toBe(course().controls.length);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
        expect(apart, `labels ${i} and ${j}`).toBe(true);
      }
    }
  });

  it('moves a label away from a crowded place rather than on top of another', () => {
    const req = (text: string) => ({ text, anchor: { x: 100, y: 100 }, colour: '#000' });
    const boxes = labelBoxes([req('101'), req('102'), req('103')], [], { x: 0, y: 0, w: 400, h: 400 }, 13);
    expect(new Set(boxes.map((b) => `${b.x},${b.y}`)).size).toBe(3);
  });

  it('picks a round scale length about a quarter of the width', () => {
    expect(scaleLength(2000)).toBe(500);
    expect(scaleLength(1300)).toBe(200);
    expect(scaleLength(90)).toBe(20);
    expect(scaleLength(7)).toBe(1);
  });

  it('says when there is nothing to draw', () => {
    const svg = drawCourseMap({
      name: 'Empty',
      controls: [{ code: '31', kind: 'control', organiser: null }],
      toleranceM: 10,
      plane: 'no plane (no positions)',
    });
    expect(svg).toContain('No position on either side to draw.');
    expect(svg).toContain('Not drawn on a side without a position: 31.');
  });
});

describe('the course check page', () => {
  const input = (over: Partial<CourseCheckPageInput> = {}): CourseCheckPageInput => ({
    title: 'Courses of event 1 against <b>file</b>.xml',
    verdict: 'different',
    verdictWord: 'DIFFERENT',
    verdictText: '1 difference (1 moved control).',
    facts: [['Organiser', 'file.xml']],
    counts: [{ label: 'moved control', count: 1 }],
    courses: [course({ moved: { '104': 40 }, service: (c, p) => (c === '104' ? { x: p.x, y: p.y + 40 } : p) })],
    classes: [
      { className: 'M21E', organiser: ['Brown'], service: ['Brown'], status: 'same' },
      { className: 'W21E', organiser: ['Blue'], service: ['Green'], status: 'changed' },
    ],
    report: "DIFFERENT: 1 difference (1 moved control).\n<script>alert('x')</script>",
    ...over,
  });

  it('is one self-contained document: no script, no external reference, everything from the input escaped', () => {
    const html = courseCheckPage(input());
    expect(html).not.toMatch(/<script|\bsrc=|\bhref=|@import|url\((?!#)/);
    expect(html).toContain('<title>Courses of event 1 against &#60;b&#62;file&#60;/b&#62;.xml</title>');
    expect(html).toContain('&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;');
  });

  it('opens with the verdict, its counts and the fit in words, then the maps, classes and report', () => {
    const html = courseCheckPage(input({ georeference: 'the whole map is shifted 40 m to the north' }));
    expect(html).toContain(
      '<section class="verdict bad" data-verdict="different"><strong>DIFFERENT</strong>: 1 difference (1 moved control).' +
        '<p class="georeference">the whole map is shifted 40 m to the north</p>',
    );
    const order = ['class="verdict', '<figure><svg', 'class="classes"', 'class="report"'].map((s) => html.indexOf(s));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order[0]).toBeGreaterThan(0);
  });

  it('marks a class on another course in words, not by colour alone', () => {
    const html = courseCheckPage(input());
    expect(html).toContain(
      '<tr class="attention" data-status="changed"><td>W21E</td><td>Blue</td><td>Green</td>' +
        '<td class="status">⚠ DIFFERENT: another course on the service</td></tr>',
    );
    expect(html).toContain('<tr data-status="same"><td>M21E</td>');
  });

  it('gives every drawing its own ids, so several sit in one page', () => {
    const html = courseCheckPage(input({ courses: [course(), course()] }));
    expect(html).toContain('aria-labelledby="c1-title c1-desc"');
    expect(html).toContain('aria-labelledby="c2-title c2-desc"');
    expect(html).toContain('<marker id="c2-move"');
  });

  it('uses the verdict class for each verdict', () => {
    for (const [verdict, cls] of [
      ['same', 'ok'],
      ['not_compared', 'warn'],
      ['not_published', 'warn'],
    ] as const) {
      expect(courseCheckPage(input({ verdict }))).toContain(`class="verdict ${cls}" data-verdict="${verdict}"`);
    }
  });
});

describe('file names for the drawings', () => {
  it('are safe, readable and never two alike, even ignoring case', () => {
    expect(
      uniqueFileNames(['Brown 1', 'brown 1', 'BROWN-1', '../etc/passwd', 'Åre', 'CON', 'nul.txt', '', '...'], '.svg'),
    ).toEqual([
      'brown-1.svg',
      'brown-1-2.svg',
      'brown-1-3.svg',
      'etc-passwd.svg',
      'are.svg',
      'con-.svg',
      'nul-.txt.svg',
      'course.svg',
      'course-2.svg',
    ]);
  });

  it('keeps long names short', () => {
    const [name] = uniqueFileNames(['x'.repeat(300)], '.svg');
    expect(name!.length).toBeLessThanOrEqual(64);
  });
});
