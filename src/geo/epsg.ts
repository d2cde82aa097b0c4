/**
 * The projected coordinate systems this library can reproject without the caller supplying a definition.
 *
 * proj4 itself knows only EPSG:4326, 3857 and the WGS 84 UTM zones; shipping the whole EPSG database (tens of MB) for the
 * handful of systems orienteering maps and course files actually use is not worth it. Every definition below was
 * written from the EPSG parameters and compared with `projinfo -o PROJ` from PROJ 9.1.1 (EPSG database v10.076); the
 * unit test projects two points per system and compares them with `cs2cs` output, with the tolerance measured there.
 *
 * `+towgs84` matters: proj4 applies it as a 3- or 7-parameter (position vector) Helmert shift to WGS 84. Where the
 * EPSG registry has several transformations for a datum, the one chosen and its accuracy are stated beside the entry.
 * The national grids of the countries outside the Nordic core (France, Austria, Benelux, Poland, the Baltics, ...) are
 * in `./epsg-national.ts`, merged here.
 */
import { ETRS89, utmZoneBand, type EpsgDefinition } from './epsg-definition.js';
import { NATIONAL_GRIDS } from './epsg-national.js';

// DHDN to WGS 84 (2), EPSG:1777: 3 m accuracy in former West Germany. PROJ prefers the BETA2007 grid (EPSG:15948)
// when it is installed; proj4 cannot use it without loading the grid, so the Helmert shift is the best available here.
const DHDN = '+ellps=bessel +towgs84=598.1,73.7,418.2,0.202,0.045,-2.455,6.7 +units=m +no_defs';

// Pulkovo 1942(83) to WGS 84 (5), EPSG:15998: 5 m accuracy, Czechia and Slovakia. The Gauss-Kruger zones also cover
// former East Germany and Hungary, which need other shifts (EPSG:1675, EPSG:15996); this table serves Czech and
// Slovak maps only.
const PULKOVO_1942_83_CZ_SK = '+ellps=krass +towgs84=26,-121,-78,0,0,0,0 +units=m +no_defs';

const FIXED: readonly EpsgDefinition[] = [
  {
    epsg: 4326,
    name: 'WGS 84',
    area: 'World',
    // Geographic: "easting" is the longitude and "northing" the latitude, both in degrees.
    definition: '+proj=longlat +datum=WGS84 +no_defs',
  },
  {
    epsg: 3857,
    name: 'WGS 84 / Pseudo-Mercator',
    area: 'World between 85.06°S and 85.06°N',
    // Spherical Mercator on WGS 84 coordinates: +nadgrids=@null stops a datum shift from the sphere to WGS 84.
    definition:
      '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs',
  },
  {
    epsg: 3006,
    name: 'SWEREF99 TM',
    area: 'Sweden',
    definition: `+proj=utm +zone=33 ${ETRS89}`,
  },
  {
    epsg: 3067,
    name: 'ETRS89 / TM35FIN(E,N)',
    area: 'Finland',
    definition: `+proj=utm +zone=35 ${ETRS89}`,
  },
  {
    epsg: 2056,
    name: 'CH1903+ / LV95',
    area: 'Switzerland; Liechtenstein',
    // CH1903+ to WGS 84 (1), EPSG:1676, 1 m.
    definition:
      '+proj=somerc +lat_0=46.9524055555556 +lon_0=7.43958333333333 +k_0=1 +x_0=2600000 +y_0=1200000 +ellps=bessel +towgs84=674.374,15.056,405.346,0,0,0,0 +units=m +no_defs',
  },
  {
    epsg: 21781,
    name: 'CH1903 / LV03',
    area: 'Switzerland; Liechtenstein',
    // CH1903 to WGS 84 (2), EPSG:1766, 1.5 m: the LV95 shift applied to the older LV03 frame. swisstopo's CHENyx06
    // grid (not loadable here) corrects the old triangulation's distortions of up to about 1.5 m.
    definition:
      '+proj=somerc +lat_0=46.9524055555556 +lon_0=7.43958333333333 +k_0=1 +x_0=600000 +y_0=200000 +ellps=bessel +towgs84=674.374,15.056,405.346,0,0,0,0 +units=m +no_defs',
  },
  {
    epsg: 27700,
    name: 'OSGB36 / British National Grid',
    area: 'Great Britain; Isle of Man',
    // OSGB36 to WGS 84 (6), EPSG:1314: the Helmert shift. Ordnance Survey's definitive transformation is the OSTN15
    // grid; against OS check points the Helmert result is 3.5 m off in Norfolk and 4.7 m on the Isles of Scilly (the
    // unit test keeps both). Good enough to place controls on an orienteering map, not for survey work.
    definition:
      '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +units=m +no_defs',
  },
  {
    epsg: 31466,
    name: 'DHDN / 3-degree Gauss-Kruger zone 2',
    area: 'Germany (former West Germany) west of 7°30′E',
    definition: `+proj=tmerc +lat_0=0 +lon_0=6 +k=1 +x_0=2500000 +y_0=0 ${DHDN}`,
  },
  {
    epsg: 31467,
    name: 'DHDN / 3-degree Gauss-Kruger zone 3',
    area: 'Germany (former West Germany) between 7°30′E and 10°30′E',
    definition: `+proj=tmerc +lat_0=0 +lon_0=9 +k=1 +x_0=3500000 +y_0=0 ${DHDN}`,
  },
  {
    epsg: 31468,
    name: 'DHDN / 3-degree Gauss-Kruger zone 4',
    area: 'Germany (former West Germany) between 10°30′E and 13°30′E',
    definition: `+proj=tmerc +lat_0=0 +lon_0=12 +k=1 +x_0=4500000 +y_0=0 ${DHDN}`,
  },
  {
    epsg: 31469,
    name: 'DHDN / 3-degree Gauss-Kruger zone 5',
    area: 'Germany (Bavaria) east of 13°30′E',
    definition: `+proj=tmerc +lat_0=0 +lon_0=15 +k=1 +x_0=5500000 +y_0=0 ${DHDN}`,
  },
  {
    epsg: 3835,
    name: 'Pulkovo 1942(83) / Gauss-Kruger zone 3',
    area: 'Czechia and Slovakia west of 18°E',
    definition: `+proj=tmerc +lat_0=0 +lon_0=15 +k=1 +x_0=3500000 +y_0=0 ${PULKOVO_1942_83_CZ_SK}`,
  },
  {
    epsg: 3836,
    name: 'Pulkovo 1942(83) / Gauss-Kruger zone 4',
    area: 'Czechia and Slovakia east of 18°E',
    definition: `+proj=tmerc +lat_0=0 +lon_0=21 +k=1 +x_0=4500000 +y_0=0 ${PULKOVO_1942_83_CZ_SK}`,
  },
  {
    epsg: 5514,
    name: 'S-JTSK / Krovak East North',
    area: 'Czechia; Slovakia',
    // S-JTSK to WGS 84 (5), EPSG:5239 (coordinate frame, signs of the rotations flipped for towgs84's position
    // vector convention): 1 m in Czechia. Slovakia's own shift (EPSG:4836) differs by about 2.5 m there; one
    // definition cannot carry both, and Czech maps are the majority. The coordinates are negative, as EPSG defines.
    definition:
      '+proj=krovak +lat_0=49.5 +lon_0=24.8333333333333 +alpha=30.2881397527778 +k=0.9999 +x_0=0 +y_0=0 +ellps=bessel +towgs84=572.213,85.334,461.94,4.9732,1.529,5.2484,3.5378 +units=m +no_defs',
  },
  {
    epsg: 3021,
    name: 'RT90 2.5 gon V',
    area: 'Sweden (old national grid, still on older maps)',
    // RT90 to WGS 84 (2), EPSG:1896, 1 m.
    definition:
      '+proj=tmerc +lat_0=0 +lon_0=15.8082777777778 +k=1 +x_0=1500000 +y_0=0 +ellps=bessel +towgs84=414.1,41.3,603.1,-0.855,2.141,-7.023,0 +units=m +no_defs',
  },
];

/** SWEREF99 local projection zones (Lantmäteriet): central meridian per zone, scale 1, false easting 150 km. */
const SWEREF99_LOCAL: ReadonlyArray<readonly [epsg: number, name: string, lon0: number, area: string]> = [
  [3007, 'SWEREF99 12 00', 12, 'Sweden west of about 12°45′E, south of about 60°N'],
  [3008, 'SWEREF99 13 30', 13.5, 'Sweden between about 12°45′E and 14°15′E, south of about 62°10′N'],
  [3009, 'SWEREF99 15 00', 15, 'Sweden between about 14°15′E and 15°45′E, south of about 61°30′N'],
  [3010, 'SWEREF99 16 30', 16.5, 'Sweden between about 15°45′E and 17°15′E, south of about 62°20′N'],
  [3011, 'SWEREF99 18 00', 18, 'Sweden east of about 17°15′E between about 58°50′N and 60°40′N'],
  [3012, 'SWEREF99 14 15', 14.25, 'Sweden west of about 15°E between about 61°35′N and 64°25′N'],
  [3013, 'SWEREF99 15 45', 15.75, 'Sweden between about 15°E and 16°30′E, about 60°30′N to 65°N'],
  [3014, 'SWEREF99 17 15', 17.25, 'Sweden between about 14°20′E and 18°50′E, about 62°05′N to 67°10′N'],
  [3015, 'SWEREF99 18 45', 18.75, 'Sweden between about 18°E and 19°30′E, about 62°50′N to 66°N; Gotland'],
  [3016, 'SWEREF99 20 15', 20.25, 'Sweden: Västerbotten east of about 19°30′E, Norrbotten west of about 23°20′E'],
  [3017, 'SWEREF99 21 45', 21.75, 'Sweden: Norrbotten east of about 19°30′E, south of about 65°50′N'],
  [3018, 'SWEREF99 23 15', 23.25, 'Sweden east of about 21°50′E'],
];

function generated(): EpsgDefinition[] {
  const out: EpsgDefinition[] = [];
  for (const [epsg, name, lon0, area] of SWEREF99_LOCAL) {
    out.push({ epsg, name, area, definition: `+proj=tmerc +lat_0=0 +lon_0=${lon0} +k=1 +x_0=150000 +y_0=0 ${ETRS89}` });
  }
  // ETRS89 / UTM zones 28N-38N (EPSG:25828-25838): the zones European national grids and OCAD maps use.
  for (let zone = 28; zone <= 38; zone++) {
    out.push({
      epsg: 25800 + zone,
      name: `ETRS89 / UTM zone ${zone}N`,
      area: `Europe ${utmZoneBand(zone)}`,
      definition: `+proj=utm +zone=${zone} ${ETRS89}`,
    });
  }
  // ETRS89 / NTM zones 5-30 (EPSG:5105-5130): Norway's one-degree zones, centred on the half degree.
  for (let zone = 5; zone <= 30; zone++) {
    const area =
      zone === 5
        ? 'Norway west of 6°E'
        : zone === 30
          ? 'Norway east of 30°E'
          : `Norway between ${zone}°E and ${zone + 1}°E`;
    out.push({
      epsg: 5100 + zone,
      name: `ETRS89 / NTM zone ${zone}`,
      area,
      definition: `+proj=tmerc +lat_0=58 +lon_0=${zone}.5 +k=1 +x_0=100000 +y_0=1000000 ${ETRS89}`,
    });
  }
  // WGS 84 / UTM zones 1-60, north (EPSG:32601-32660) and south (EPSG:32701-32760).
  for (let zone = 1; zone <= 60; zone++) {
    const band = utmZoneBand(zone);
    out.push({
      epsg: 32600 + zone,
      name: `WGS 84 / UTM zone ${zone}N`,
      area: `Northern hemisphere ${band}`,
      definition: `+proj=utm +zone=${zone} +datum=WGS84 +units=m +no_defs`,
    });
    out.push({
      epsg: 32700 + zone,
      name: `WGS 84 / UTM zone ${zone}S`,
      area: `Southern hemisphere ${band}`,
      definition: `+proj=utm +zone=${zone} +south +datum=WGS84 +units=m +no_defs`,
    });
  }
  return out;
}

/** Every built-in definition, sorted by EPSG code. */
export const EPSG_DEFINITIONS: readonly EpsgDefinition[] = Object.freeze(
  [...FIXED, ...NATIONAL_GRIDS, ...generated()].sort((a, b) => a.epsg - b.epsg).map((entry) => Object.freeze(entry)),
);

const BY_CODE: ReadonlyMap<number, EpsgDefinition> = new Map(EPSG_DEFINITIONS.map((entry) => [entry.epsg, entry]));

export function findEpsgDefinition(epsg: number): EpsgDefinition | undefined {
  return BY_CODE.get(epsg);
}
