/**
 * The shape of one built-in projection and the pieces its definitions share. Kept apart from the tables so that the
 * original table (`epsg.ts`) and the national grids added later (`epsg-national.ts`) both use them without importing
 * each other.
 */
export interface EpsgDefinition {
  readonly epsg: number;
  /** The EPSG name of the coordinate reference system. */
  readonly name: string;
  /** Where the system is meant to be used (shortened from the EPSG area of use). */
  readonly area: string;
  /** proj4 definition string. */
  readonly definition: string;
}

// ETRS89 realisations (and SWEREF99, RGF93, ETRF2000-PL, LKS92/94, EST97, IRENET95, NZGD2000, which realise the same
// frame) agree with WGS 84 to well under a metre: a zero shift, as EPSG and PROJ do.
export const ETRS89 = '+ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';

/** The longitudes of UTM zone `zone`, for the generated area texts: zone 33 -> `between 12°E and 18°E`. */
export function utmZoneBand(zone: number): string {
  const west = zone * 6 - 186;
  return `between ${degrees(west)} and ${degrees(west + 6)}`;
}

/** `12` -> `12°E`, `-8` -> `8°W`. */
function degrees(lon: number): string {
  return lon < 0 ? `${-lon}°W` : `${lon}°E`;
}
