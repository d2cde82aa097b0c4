/**
 * Options naming a grid (`--epsg`, `--organiser-epsg`): an EPSG code or a proj4 definition, checked against the
 * projection table before any file is read or request sent, since an unknown grid is a mistake on the command line.
 */
import { ValidationError } from '../errors.js';
import { getProjection } from '../geo/projection.js';
import { UsageError, optionError, stringOption } from './command.js';

/** A grid the projection table knows, or a usage error naming the option. */
export function checkGrid(name: string, system: number | string): void {
  try {
    getProjection(system);
  } catch (err) {
    if (err instanceof ValidationError) throw optionError(name, err);
    throw err;
  }
}

/** `--NAME`: a bare number is an EPSG code; anything else (`EPSG:3006`, `+proj=...`) goes to getProjection as it is. */
export function gridOption<V extends Readonly<Record<string, unknown>>>(
  values: V,
  name: keyof V & string,
): number | string | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  if (raw.trim() === '') throw new UsageError(`--${name} takes an EPSG code or a proj4 definition`);
  const system = /^\d{1,6}$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  checkGrid(name, system);
  return system;
}
