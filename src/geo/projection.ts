/**
 * Reprojection of control positions between WGS 84 and projected grids, on top of proj4.
 *
 * The service's course endpoint can return controls projected into an EPSG system (easting in `lng`, northing in
 * `lat`), organisers' course files sometimes carry projected coordinates, and the simulator projects on request. All
 * of them go through `getProjection`, which knows the systems in `./epsg.ts` and accepts any proj4 string besides.
 */
import proj4 from 'proj4';
import type { Converter } from 'proj4';

import { ValidationError } from '../errors.js';
import type { Issue } from '../errors.js';
import { EPSG_DEFINITIONS, findEpsgDefinition } from './epsg.js';

/**
 * A position in a projected system, in the system's units (metres for every built-in system except EPSG:4326, where
 * easting is the longitude and northing the latitude). Always easting first, whatever axis order EPSG lists (SWEREF99
 * TM and the Gauss-Kruger systems officially put northing first).
 */
export interface ProjectedPoint {
  easting: number;
  northing: number;
}

export interface Projection {
  /** The EPSG code, or `undefined` for a custom proj4 string. */
  epsg: number | undefined;
  /** Human-readable name, such as `SWEREF99 TM`. */
  name: string;
  /** The proj4 definition string. */
  definition: string;
  /** WGS 84 latitude/longitude in degrees to this system. Throws `ValidationError` if the result is not finite. */
  forward(p: { lat: number; lng: number }): ProjectedPoint;
  /** This system to WGS 84 latitude/longitude in degrees. Throws `ValidationError` if the result is not finite. */
  inverse(p: ProjectedPoint): { lat: number; lng: number };
}

const PARAMETER = 'projectionEpsgCode';
const SUPPORTED_HINT =
  'see listProjections() for the built-in EPSG codes, or pass a proj4 definition string ("+proj=...") instead';

// Creating a converter parses the definition and derives the ellipsoid constants; reusing it is about 10x faster
// than calling proj4(from, to, point) per point (DEPENDENCIES.md), so each projection is built once per process.
const byEpsg = new Map<number, Projection>();
// Custom strings come from user input: bound the cache so a long-running process fed many strings cannot grow it
// without limit. Map iteration order is insertion order, so the first key is the oldest.
const CUSTOM_CACHE_LIMIT = 64;
const byDefinition = new Map<string, Projection>();

/**
 * The projection for an EPSG code (`3006`, `'3006'`, `'EPSG:3006'`) or a proj4 definition string (`'+proj=...'`).
 * Throws `ValidationError` (issue path `projectionEpsgCode`, code `unsupported_projection`) for a code outside the
 * built-in table or a definition proj4 cannot use. Custom definitions must carry their datum shift as `+towgs84`
 * (grid files are refused), and `+axis` is ignored: `easting`/`northing` are always the east- and north-pointing values.
 * Projections are built once and cached; the same input returns the same frozen object.
 */
export function getProjection(code: number | string): Projection {
  if (typeof code === 'number') return fromEpsg(code, String(code));
  const text = code.trim();
  // Any "+name=value" string is taken as a proj4 definition: most start with +proj, some (proj4's own) with +title.
  if (text.startsWith('+')) return fromDefinition(text);
  const match = /^(?:EPSG:)?(\d{1,6})$/i.exec(text);
  if (match?.[1] === undefined) {
    throw unsupported(
      `"${code}" is neither an EPSG code ("EPSG:3006" or "3006") nor a proj4 definition; ${SUPPORTED_HINT}`,
    );
  }
  return fromEpsg(Number(match[1]), text);
}

/** True when `code` is in the built-in table (custom proj4 strings are always accepted by `getProjection`). */
export function isSupportedEpsg(code: number): boolean {
  return findEpsgDefinition(code) !== undefined;
}

/** The built-in systems, sorted by EPSG code. A fresh array each call, so callers may modify it. */
export function listProjections(): Array<{ epsg: number; name: string; area: string }> {
  return EPSG_DEFINITIONS.map(({ epsg, name, area }) => ({ epsg, name, area }));
}

function fromEpsg(epsg: number, asGiven: string): Projection {
  const cached = byEpsg.get(epsg);
  if (cached) return cached;
  const entry = Number.isInteger(epsg) ? findEpsgDefinition(epsg) : undefined;
  if (!entry) throw unsupported(`EPSG:${asGiven} is not a built-in projection; ${SUPPORTED_HINT}`);
  const projection = build(entry.epsg, entry.name, entry.definition, proj4(entry.definition));
  byEpsg.set(epsg, projection);
  return projection;
}

function fromDefinition(definition: string): Projection {
  const cached = byDefinition.get(definition);
  if (cached) return cached;
  const params = parseDefinition(definition);
  const converter = createCustomConverter(definition, params);
  const projection = build(
    undefined,
    params.get('title') ?? `Custom (+proj=${params.get('proj')})`,
    definition,
    converter,
  );
  checkUsable(projection, converter);
  if (byDefinition.size >= CUSTOM_CACHE_LIMIT) {
    const oldest = byDefinition.keys().next();
    if (!oldest.done) byDefinition.delete(oldest.value);
  }
  byDefinition.set(definition, projection);
  return projection;
}

function build(epsg: number | undefined, name: string, definition: string, converter: Converter): Projection {
  const label = epsg === undefined ? name : `EPSG:${epsg}`;
  return Object.freeze({
    epsg,
    name,
    definition,
    forward(p: { lat: number; lng: number }): ProjectedPoint {
      const at = `lat ${p.lat}, lng ${p.lng}`;
      const failed = `${at} has no finite position in ${label} (outside the projection's domain)`;
      const out = convert((q) => converter.forward(q), { x: p.lng, y: p.lat }, at, failed);
      return { easting: out.x, northing: out.y };
    },
    inverse(p: ProjectedPoint): { lat: number; lng: number } {
      const at = `easting ${p.easting}, northing ${p.northing}`;
      const failed = `${at} in ${label} has no finite latitude/longitude`;
      const out = convert((q) => converter.inverse(q), { x: p.easting, y: p.northing }, at, failed);
      return { lat: out.y, lng: out.x };
    },
  });
}

type XY = { x: number; y: number };

/**
 * One direction of a converter with both ends checked: proj4 answers non-finite input, and points outside a
 * projection's domain, with NaN or Infinity instead of an error.
 */
function convert(direction: (p: XY) => XY, p: XY, at: string, failed: string): XY {
  requireFinite(p.x, p.y, 'position', at);
  const out = direction(p);
  requireFinite(out.x, out.y, 'position', failed, 'projection_failed');
  return out;
}

function requireFinite(a: number, b: number, path: string, what: string, code = 'not_finite'): void {
  if (Number.isFinite(a) && Number.isFinite(b)) return;
  const message = code === 'not_finite' ? `${what}: coordinates must be finite numbers` : what;
  throw new ValidationError('Cannot reproject', [{ path, code, message }]);
}

function unsupported(message: string, cause?: unknown): ValidationError {
  const issue: Issue = { path: PARAMETER, code: 'unsupported_projection', message };
  return new ValidationError('Unsupported projection', [issue], cause === undefined ? {} : { cause });
}

// proj4 accepts almost any string and quietly falls back to defaults (an unknown ellipsoid becomes WGS 84, a
// non-numeric parameter becomes NaN, a missing UTM zone gives Infinity), so a typo in a course file's definition would
// place every control wrongly without an error. These checks turn the common mistakes into a clear message up front.
const NUMERIC_PARAMS = new Set([
  'lat_0',
  'lon_0',
  'lat_1',
  'lat_2',
  'lat_ts',
  'lonc',
  'alpha',
  'gamma',
  'k',
  'k_0',
  'x_0',
  'y_0',
  'a',
  'b',
  'rf',
  'f',
  'R',
  'h',
  'to_meter',
]);

function parseDefinition(definition: string): Map<string, string | undefined> {
  const params = new Map<string, string | undefined>();
  const bad = (why: string): ValidationError =>
    unsupported(`the proj4 definition "${definition}" cannot be used: ${why}; ${SUPPORTED_HINT}`);
  // +title is free text and may contain spaces, so it is taken out before splitting the rest on whitespace.
  const title = /\+title=(.*?)(?=\s\+[A-Za-z_]|$)/.exec(definition);
  const rest = title ? definition.replace(title[0], ' ') : definition;
  if (title?.[1] !== undefined) params.set('title', title[1].trim());
  for (const token of rest.split(/\s+/).filter((t) => t.length > 0)) {
    const match = /^\+([A-Za-z_][A-Za-z0-9_]*)(?:=(\S+))?$/.exec(token);
    if (!match?.[1]) throw bad(`"${token}" is not of the form +name or +name=value`);
    const [, key, value] = match;
    if (params.has(key)) throw bad(`+${key} is given twice`);
    params.set(key, value);
  }
  const projName = params.get('proj');
  if (projName === undefined) throw bad('+proj=<name> is missing');
  for (const [key, value] of params) {
    if (NUMERIC_PARAMS.has(key) && !isNumber(value)) throw bad(`+${key} must be a number`);
  }
  const zone = params.get('zone');
  if (
    params.has('zone') &&
    !(zone !== undefined && /^\d{1,2}$/.test(zone) && Number(zone) >= 1 && Number(zone) <= 60)
  ) {
    throw bad('+zone must be a whole number from 1 to 60');
  }
  if (projName === 'utm' && zone === undefined) throw bad('+proj=utm needs +zone');
  const towgs84 = params.get('towgs84');
  if (params.has('towgs84')) {
    const parts = (towgs84 ?? '').split(',');
    if (!((parts.length === 3 || parts.length === 7) && parts.every(isNumber))) {
      throw bad('+towgs84 needs 3 or 7 comma-separated numbers');
    }
  }
  const nadgrids = params.get('nadgrids');
  if (params.has('nadgrids') && nadgrids !== '@null' && nadgrids !== 'null') {
    // proj4 can only apply grids loaded into it beforehand, and would otherwise print a warning and return nothing.
    throw bad('+nadgrids grid files are not supported; use +towgs84 with the Helmert parameters instead');
  }
  return params;
}

function isNumber(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '' && Number.isFinite(Number(value));
}

function createCustomConverter(definition: string, params: Map<string, string | undefined>): Converter {
  let converter: Converter;
  try {
    converter = proj4(definition);
  } catch (error) {
    // proj4 throws plain strings, such as "Could not get projection name from: +proj=foo".
    const reason = error instanceof Error ? error.message : String(error);
    throw unsupported(`the proj4 definition "${definition}" cannot be used: ${reason}; ${SUPPORTED_HINT}`, error);
  }
  const parsed = converter.oProj;
  const bad = (why: string): ValidationError =>
    unsupported(`the proj4 definition "${definition}" cannot be used: ${why}; ${SUPPORTED_HINT}`);
  const ellps = params.get('ellps');
  if (ellps !== undefined && ellps.toUpperCase() !== 'WGS84' && parsed && isWgs84Ellipsoid(parsed)) {
    // proj4 silently substitutes WGS 84 for an ellipsoid name it does not know.
    throw bad(`+ellps=${ellps} is not an ellipsoid proj4 knows`);
  }
  const datum = params.get('datum');
  // proj4 gives "no datum shift" (its documented meaning of +datum=none) to names it does not know and to datums
  // defined by grid files (NAD27): controls would land 100 m or more off without any error.
  if (datum !== undefined && datum !== 'none' && parsed?.datum.datum_type === PJD_NODATUM) {
    throw bad(
      `+datum=${datum} gives no datum shift in proj4 (unknown, or defined by grid files); give +ellps and +towgs84`,
    );
  }
  return converter;
}

// proj4's datum type for "no datum shift" (lib/constants/values.js).
const PJD_NODATUM = 5;
const WGS84_A = 6378137;
const WGS84_RF = 298.257223563;

function isWgs84Ellipsoid(parsed: { a: unknown; rf: unknown }): boolean {
  return parsed.a === WGS84_A && typeof parsed.rf === 'number' && Math.abs(parsed.rf - WGS84_RF) < 1e-9;
}

/**
 * A definition that cannot project its own origin is broken (a NaN parameter proj4 accepted, a projection missing a
 * required parameter): better to refuse it here than to hand back NaN for every control later.
 */
function checkUsable(projection: Projection, converter: Converter): void {
  const parsed = converter.oProj;
  const origin = {
    lat: parsed && 'lat0' in parsed && typeof parsed.lat0 === 'number' ? (parsed.lat0 * 180) / Math.PI : 0,
    lng: parsed && 'long0' in parsed && typeof parsed.long0 === 'number' ? (parsed.long0 * 180) / Math.PI : 0,
  };
  try {
    projection.inverse(projection.forward(origin));
  } catch (error) {
    throw unsupported(
      `the proj4 definition "${projection.definition}" cannot be used: it does not project its own origin ` +
        `(lat ${origin.lat}, lng ${origin.lng}) to finite coordinates, so a parameter is missing or invalid; ` +
        SUPPORTED_HINT,
      error,
    );
  }
}
