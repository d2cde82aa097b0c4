/**
 * What coordinates that are not degrees probably are: the national grids (or zone families) their numbers fit, where
 * each would put the controls, and the projection to convert them with, as a `projection` hint. Kept apart from the
 * lint checks because it is a question of its own (which grid is this?) with its own wording.
 */
import type { Hint } from '../errors.js';
import type { GeoPosition } from './model.js';
import { couldBeUtm, guessProjections, type ProjectionGuess } from './course-projection.js';

/**
 * Why coordinates are probably a grid, and which: the systems they fit and the projection to convert them with, as a
 * `projection` hint whose values are the EPSG codes to choose from (none when no known grid fits).
 */
export function explainNotDegrees(positions: readonly GeoPosition[]): { text: string; hint?: Hint } {
  const first = positions[0];
  if (first !== undefined && Math.abs(first.lat) > 90 && Math.abs(first.lat) <= 180 && Math.abs(first.lng) <= 90) {
    return {
      text: 'The latitude and longitude look swapped: lat is the north-south value (-90..90), lng the east-west value.',
    };
  }
  const base = 'They look like projected easting (lng) and northing (lat) in metres.';
  const orExport = 'or export the course data in WGS 84 from the course-setting program.';
  const clauses = describeGuesses(guessProjections(positions));
  const [best, ...others] = clauses;
  if (best !== undefined) {
    const more = others.length > 0 ? ` It could also be ${others.map((c) => c.text).join(', or ')}.` : '';
    const which =
      best.codes.length === 1
        ? `the projection EPSG:${best.codes[0]}`
        : `the projection of the map's zone (one of ${best.codes.join(', ')})`;
    const hint: Hint = {
      code: 'projection',
      text: `Convert them to degrees with ${which} if that is the map's system, ${orExport}`,
      values: best.codes,
    };
    return {
      text: `${base} The numbers fit ${best.text}.${more} ${hint.text}`,
      hint,
    };
  }
  const convert = "convert them with the map's projection (its EPSG code or a proj4 definition)";
  if (first !== undefined && couldBeUtm(first)) {
    const hint: Hint = { code: 'projection', text: `${capitalised(convert)}, ${orExport}` };
    return {
      text:
        `${base} They fit no national grid this tool knows but could be a UTM zone (ETRS89: EPSG:25828-25838, ` +
        `WGS 84: EPSG:32601-32660 north, 32701-32760 south), which the numbers alone cannot tell. ${hint.text}`,
      hint,
    };
  }
  // The advice goes on with the sentence, in lower case: front ends that word it keep to that (cli/hints.ts).
  const hint: Hint = { code: 'projection', text: `${convert}, ${orExport}` };
  return { text: `${base} They fit no grid this tool knows: ${hint.text}`, hint };
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** One clause per fitting system, most likely first; zones of one family that all fit become one clause. */
function describeGuesses(guesses: readonly ProjectionGuess[]): Array<{ codes: number[]; text: string }> {
  const out: Array<{ codes: number[]; text: string }> = [];
  const seen = new Set<string>();
  for (const g of guesses) {
    const members = g.family === undefined ? [g] : guesses.filter((x) => x.family === g.family);
    if (g.family !== undefined && members.length > 1) {
      if (seen.has(g.family)) continue;
      seen.add(g.family);
      out.push({
        codes: members.map((m) => m.epsg),
        text: `the ${g.family}, though the numbers cannot tell which zone (EPSG:${g.epsg} would place the controls near ${place(g.center)})`,
      });
    } else {
      out.push({ codes: [g.epsg], text: `${g.name} (EPSG:${g.epsg}), placing the controls near ${place(g.center)}` });
    }
  }
  return out;
}

function place(p: { lat: number; lng: number }): string {
  const lat = `${Math.abs(p.lat).toFixed(2)}°${p.lat < 0 ? 'S' : 'N'}`;
  const lng = `${Math.abs(p.lng).toFixed(2)}°${p.lng < 0 ? 'W' : 'E'}`;
  return `${lat} ${lng}`;
}
