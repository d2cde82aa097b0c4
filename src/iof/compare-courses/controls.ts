/**
 * Controls on the two sides: start and finish points that only their codes tell apart, controls missing on either
 * side, and controls that moved. Positions are put into one frame first (WGS 84 degrees, or the service's grid), and
 * when the organiser's positions are not in a known system that is said once, in a note, not once per control.
 */
import { plural } from '../../core/plural.js';
import type { Hint } from '../../errors.js';
import { distanceM } from '../../geo/distance.js';
import type { Projection } from '../../geo/projection.js';
import { guessProjections, isDegrees } from '../course-projection.js';
import type { Control, ControlType, Course, RaceCourseData } from '../model.js';
import type { CompareNoteCode, PositionCheck, Position, PositionsNotComparedReason } from './types.js';
import { fitGeoreference, type Georeference, type MeasuredControl } from './georeference.js';
import { capital, list, note, type Out, type Settings } from './report.js';

/** Where distances are measured, in words: `WGS 84`, or the grid (`EPSG:27700 (OSGB36 / British National Grid)`). */
export function frameName(projection: Projection | undefined): string {
  if (projection === undefined) return 'WGS 84';
  return projection.epsg === undefined ? projection.name : `EPSG:${projection.epsg} (${projection.name})`;
}

/** Service code -> organiser code for a start or finish that only its code tells apart. */
export function pairStartsAndFinishes(
  organiser: RaceCourseData,
  service: RaceCourseData,
  out: Out,
): Map<string, string> {
  const alias = new Map<string, string>();
  const orgIds = new Set(organiser.controls.map((c) => c.id));
  const svcIds = new Set(service.controls.map((c) => c.id));
  const pairs: Array<[ControlType, CompareNoteCode, string]> = [
    ['Start', 'start_code_differs', 'start'],
    ['Finish', 'finish_code_differs', 'finish'],
  ];
  for (const [type, code, word] of pairs) {
    const orgOnly = organiser.controls.filter((c) => c.type === type && !svcIds.has(c.id));
    const svcOnly = service.controls.filter((c) => c.type === type && !orgIds.has(c.id));
    if (orgOnly.length !== 1 || svcOnly.length !== 1) continue;
    const o = orgOnly[0]!;
    const s = svcOnly[0]!;
    alias.set(s.id, o.id);
    note(
      out,
      code,
      `The ${word} is ${o.id} in the organiser's file and ${s.id} on the service: taken as the same ${word}, ` +
        'as it is the only one each side has under a code the other side lacks.',
    );
  }
  return alias;
}

/** A position put into the frame distances are measured in, or why it cannot be. */
type Placer = (p: Position) => Position | string;

function usedIds(courses: readonly Course[]): Set<string> {
  return new Set(courses.flatMap((c) => c.controls.map((cc) => cc.controlId)));
}

function byId(controls: readonly Control[]): Map<string, Control> {
  const map = new Map<string, Control>();
  for (const c of controls) if (!map.has(c.id)) map.set(c.id, c);
  return map;
}

/** 0°, 0° is what some programs write for a map without georeference: no position at all. */
function hasPosition(c: Control): c is Control & { position: Position } {
  return c.position !== undefined && !(c.position.lat === 0 && c.position.lng === 0);
}

export function compareControls(
  organiser: RaceCourseData,
  svcControls: readonly Control[],
  svcCourses: readonly Course[],
  settings: Settings,
  out: Out,
): PositionCheck {
  // Without courses on one side every control would be "missing" there: the missing courses already say it all.
  if (svcCourses.length === 0 || organiser.courses.length === 0) {
    const side = organiser.courses.length === 0 ? "the organiser's file" : 'the service';
    return notCompared('no_courses', `${capital(side)} has no courses, so no control position was compared.`);
  }
  if (organiser.controls.length === 0) {
    return notComparedNote(
      out,
      'no_controls',
      "The organiser's file defines no controls, only the courses' sequences of codes: controls were not compared. " +
        'Export the course data with the controls included.',
    );
  }
  if (svcControls.length === 0) {
    return notComparedNote(out, 'no_controls', 'The service sent no control definitions: controls were not compared.');
  }

  const orgUsed = usedIds(organiser.courses);
  const svcUsed = usedIds(svcCourses);
  const orgDefs = byId(organiser.controls);
  const svcDefs = byId(svcControls);

  // Codes in the organiser's order, then the ones only the service has, in its order.
  const codes = [...new Set([...organiser.controls.map((c) => c.id), ...svcControls.map((c) => c.id)])].filter(
    (id) => orgUsed.has(id) || svcUsed.has(id),
  );

  const pairs: Array<{ code: string; o: Control; s: Control }> = [];
  for (const code of codes) {
    const o = orgDefs.get(code);
    const s = svcDefs.get(code);
    if (o !== undefined && s === undefined && orgUsed.has(code)) {
      out.findings.push({
        kind: 'control_missing_on_service',
        control: code,
        message: `Control ${code} is in the organiser's file (on ${coursesUsing(organiser.courses, code)}) but not on the service.`,
      });
    } else if (s !== undefined && o === undefined && svcUsed.has(code)) {
      out.findings.push({
        kind: 'control_missing_in_organiser',
        control: code,
        message: `Control ${code} is on the service (on ${coursesUsing(svcCourses, code)}) but not in the organiser's file.`,
      });
    } else if (o !== undefined && s !== undefined) {
      pairs.push({ code, o, s });
    }
  }

  const orgPlacer = organiserPlacer(organiser.controls, settings, out);
  if (orgPlacer === undefined) {
    // organiserPlacer has just said why in a note: the check carries the same words.
    const why = out.notes.at(-1)!;
    return notCompared(why.code as PositionsNotComparedReason, why.message);
  }
  const svcPlacer = servicePlacer(settings);
  const distance = settings.serviceProjection === undefined ? distanceM : planeDistance;

  const { measured, skipped } = measure(pairs, orgPlacer, svcPlacer, distance);
  const georeference = fitGeoreference(measured, settings.toleranceM, settings.serviceProjection !== undefined);
  if (georeference !== undefined) out.georeference = georeference.fit;
  reportMoves(measured, georeference, settings.toleranceM, out);
  const compared = measured.length;
  if (skipped.length > 0) {
    const message = `The positions of ${plural(skipped.length, 'control')} were not compared: ${list(skipped)}.`;
    note(out, 'positions_not_compared', message);
    return {
      status: compared > 0 ? 'partly_compared' : 'not_compared',
      controls: compared,
      reason: 'positions_not_compared',
      message,
    };
  }
  return { status: 'compared', controls: compared };
}

interface Measured extends MeasuredControl {
  /** The positions as each side's file writes them, for the finding. */
  written: { organiser: Position; service: Position };
}

/** Every pair's positions put into the frame and measured, or why they could not be. */
function measure(
  pairs: ReadonlyArray<{ code: string; o: Control; s: Control }>,
  orgPlacer: Placer,
  svcPlacer: Placer,
  distance: (a: Position, b: Position) => number,
): { measured: Measured[]; skipped: string[] } {
  const measured: Measured[] = [];
  const skipped: string[] = [];
  for (const { code, o, s } of pairs) {
    if (!hasPosition(o) || !hasPosition(s)) {
      skipped.push(`${code} (no position ${hasPosition(o) ? 'on the service' : "in the organiser's file"})`);
      continue;
    }
    const a = orgPlacer(o.position);
    const b = svcPlacer(s.position);
    if (typeof a === 'string') {
      skipped.push(`${code} (${a})`);
      continue;
    }
    if (typeof b === 'string') {
      skipped.push(`${code} (${b})`);
      continue;
    }
    measured.push({
      code,
      organiser: a,
      service: b,
      distanceM: distance(a, b),
      written: {
        organiser: { lat: o.position.lat, lng: o.position.lng },
        service: { lat: s.position.lat, lng: s.position.lng },
      },
    });
  }
  return { measured, skipped };
}

/**
 * The moved controls: each control farther apart than the tolerance, or, when one transform explains the
 * differences, that one georeferencing difference and the controls still farther apart after it (by that distance).
 */
function reportMoves(
  measured: readonly Measured[],
  georeference: Georeference | undefined,
  toleranceM: number,
  out: Out,
): void {
  const explained = georeference?.fit.explains === true ? georeference : undefined;
  if (explained !== undefined) {
    out.findings.push({
      kind: 'georeference_differs',
      message: explained.fit.message,
      distanceM: explained.fit.shiftM,
      toleranceM,
    });
  }
  for (const m of measured) {
    const d = explained === undefined ? m.distanceM : explained.residualM.get(m.code)!;
    if (d <= toleranceM) continue;
    const message =
      explained === undefined
        ? `Control ${m.code} is ${Math.round(d)} m from where the organiser's file puts it ` +
          `(tolerance ${toleranceM} m).`
        : `Control ${m.code} is ${Math.round(d)} m from where the organiser's file puts it once the ` +
          `georeferencing difference is taken out (${Math.round(m.distanceM)} m without; tolerance ${toleranceM} m).`;
    out.findings.push({
      kind: 'control_moved',
      control: m.code,
      message,
      organiser: m.written.organiser,
      service: m.written.service,
      distanceM: Math.round(d * 10) / 10,
      toleranceM,
    });
  }
}

function notCompared(reason: PositionsNotComparedReason, message: string): PositionCheck {
  return { status: 'not_compared', controls: 0, reason, message };
}

/** A note, and the check that carries the same words. */
function notComparedNote(
  out: Out,
  reason: PositionsNotComparedReason & CompareNoteCode,
  message: string,
): PositionCheck {
  note(out, reason, message);
  return notCompared(reason, message);
}

/** `Brown and Blue`, the courses of one side that visit `code`. */
function coursesUsing(courses: readonly Course[], code: string): string {
  const names = courses.filter((c) => c.controls.some((cc) => cc.controlId === code)).map((c) => c.name);
  return names.length === 1 ? names[0]! : `${list(names)}`;
}

function planeDistance(a: Position, b: Position): number {
  return Math.hypot(a.lng - b.lng, a.lat - b.lat);
}

/**
 * How the organiser's positions reach the frame, after looking at all of them: `undefined` (with a note) when none
 * can be compared at all, so that a file without positions or in an unknown grid is said once, not once per control.
 */
function organiserPlacer(controls: readonly Control[], settings: Settings, out: Out): Placer | undefined {
  const placed = controls.filter(hasPosition);
  if (placed.length === 0) {
    note(
      out,
      'no_positions',
      "The organiser's file gives no geographic positions (only map positions, or none), so control positions " +
        'were not compared; codes, sequences, lengths, climbs and classes were. Georeference the map in the ' +
        'course-setting program and export again to compare positions too.',
    );
    return undefined;
  }
  let grid = settings.organiserProjection;
  if (grid !== undefined && placed.every((c) => isDegrees(c.position))) {
    note(
      out,
      'organiser_epsg_ignored',
      `The organiser's positions are already latitude and longitude, so they were not read as ${frameName(grid)}.`,
    );
    grid = undefined;
  }
  if (grid === undefined) {
    const notDegrees = placed.filter((c) => !isDegrees(c.position));
    if (notDegrees.length * 2 > placed.length) {
      const why = notDegreesNote(notDegrees.map((c) => c.position));
      note(out, 'positions_not_degrees', why.message, why.hint);
      return undefined;
    }
  }
  const target = settings.serviceProjection;
  return (p) => {
    try {
      let degrees: Position = p;
      if (grid !== undefined) {
        // The same grid on both sides: no detour through degrees, which would only add rounding.
        if (target !== undefined && target.definition === grid.definition) return p;
        degrees = grid.inverse({ easting: p.lng, northing: p.lat });
        if (!isDegrees(degrees)) return `not a position in ${frameName(grid)}`;
      } else if (!isDegrees(p)) {
        return "the organiser's position is not in degrees";
      }
      if (target === undefined) return degrees;
      const { easting, northing } = target.forward(degrees);
      return { lat: northing, lng: easting };
    } catch {
      return `cannot be placed in ${frameName(target ?? grid)}`;
    }
  };
}

function servicePlacer(settings: Settings): Placer {
  if (settings.serviceProjection !== undefined) return (p) => p;
  return (p) => (isDegrees(p) ? p : "the service's position is not in degrees");
}

/**
 * Why the organiser's positions were not compared, with an `organiser_projection` hint whose values are the EPSG codes
 * that fit (a whole family of zones when the numbers cannot tell which; none when no known grid fits).
 */
function notDegreesNote(positions: readonly Position[]): { message: string; hint: Hint } {
  const first = positions[0]!;
  const guesses = guessProjections(positions);
  const best = guesses[0];
  const what =
    `The organiser's positions are not latitude and longitude (lat ${first.lat}, lng ${first.lng}): they look like ` +
    'grid metres, so control positions were not compared.';
  // The advice goes on with the sentence that names the grid, in lower case: front ends that word it keep to that.
  const orExport = 'or export the course data in WGS 84.';
  if (best === undefined) {
    const hint: Hint = {
      code: 'organiser_projection',
      text: `give the grid as the organiser's projection (the \`organiserProjection\` option: an EPSG code or a proj4 definition), ${orExport}`,
    };
    return { message: `${what} They fit no grid this tool knows; ${hint.text}`, hint };
  }
  if (best.family !== undefined) {
    const codes = guesses.filter((g) => g.family === best.family).map((g) => g.epsg);
    const hint: Hint = {
      code: 'organiser_projection',
      text: `if that is the map's grid, give the map's zone (one of ${codes.join(', ')}) as the organiser's projection (the \`organiserProjection\` option), ${orExport}`,
      values: codes,
    };
    return { message: `${what} They fit ${best.family}: ${hint.text}`, hint };
  }
  const hint: Hint = {
    code: 'organiser_projection',
    text: `if that is the map's grid, give EPSG:${best.epsg} as the organiser's projection (the \`organiserProjection\` option), ${orExport}`,
    values: [best.epsg],
  };
  return {
    message: `${what} They fit ${best.name} (EPSG:${best.epsg}): ${hint.text}`,
    hint,
  };
}
