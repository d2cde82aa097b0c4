/**
 * National grids of the countries whose organisers send course files to the service beyond the Nordic core already in
 * `./epsg.ts`: France, Austria, Benelux, Poland, Italy, Hungary, the Baltic states, Portugal, Ireland, Slovenia,
 * Croatia, Finland's GK zones, Norway's compound NN2000 codes, New Zealand and Australia.
 *
 * Written from `projinfo -o PROJ` (PROJ 9.1.1, EPSG database v10.076). Where PROJ's export carries no `+towgs84`
 * (the EPSG registry has several transformations, some grid-based), the Helmert transformation named beside the entry
 * was taken from `projinfo -s <datum> -t EPSG:4326`, with rotations turned into the position-vector convention
 * `+towgs84` uses. The unit test compares two points per code with `cs2cs` and states the tolerance measured there.
 */
import { ETRS89, utmZoneBand, type EpsgDefinition } from './epsg-definition.js';

// MGI to WGS 84 (3), EPSG:1618: 1.5 m, all of Austria (PROJ's own export of the MGI grids carries the same shift).
const MGI = '+ellps=bessel +towgs84=577.326,90.129,463.919,5.137,1.474,5.297,2.4232 +units=m +no_defs';

// Monte Mario to WGS 84 (4), EPSG:1660: 4 m, mainland Italy (Sicily and Sardinia have their own, 1664 and 1663).
const MONTE_MARIO = '+ellps=intl +towgs84=-104.1,-49.1,-9.9,0.971,-2.917,0.714,-11.68 +units=m +no_defs';

// GDA94 to WGS 84 (1), EPSG:1150 and GDA2020 to WGS 84 (2), EPSG:8450: both null transformations of 3 m accuracy,
// which is what PROJ applies too (the GDA94 -> GDA2020 grid is not loadable by proj4). GDA94 is now about 1.8 m from
// the current WGS 84 because Australia moves; a map georeferenced in either fits a GPS route to that order.
const GDA = '+ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';

const FIXED: readonly EpsgDefinition[] = [
  {
    epsg: 2154,
    name: 'RGF93 v1 / Lambert-93',
    area: 'France (mainland and Corsica)',
    definition: `+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 ${ETRS89}`,
  },
  {
    epsg: 31287,
    name: 'MGI / Austria Lambert',
    area: 'Austria',
    definition: `+proj=lcc +lat_0=47.5 +lon_0=13.3333333333333 +lat_1=49 +lat_2=46 +x_0=400000 +y_0=400000 ${MGI}`,
  },
  {
    epsg: 3416,
    name: 'ETRS89 / Austria Lambert',
    area: 'Austria',
    definition: `+proj=lcc +lat_0=47.5 +lon_0=13.3333333333333 +lat_1=49 +lat_2=46 +x_0=400000 +y_0=400000 ${ETRS89}`,
  },
  {
    epsg: 31370,
    name: 'BD72 / Belgian Lambert 72',
    area: 'Belgium',
    // BD72 to WGS 84 (3), EPSG:15929, 1 m (PROJ's first choice).
    definition:
      '+proj=lcc +lat_0=90 +lon_0=4.36748666666667 +lat_1=51.1666672333333 +lat_2=49.8333339 +x_0=150000.013 +y_0=5400088.438 +ellps=intl +towgs84=-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747 +units=m +no_defs',
  },
  {
    epsg: 3812,
    name: 'ETRS89 / Belgian Lambert 2008',
    area: 'Belgium',
    definition: `+proj=lcc +lat_0=50.797815 +lon_0=4.35921583333333 +lat_1=49.8333333333333 +lat_2=51.1666666666667 +x_0=649328 +y_0=665262 ${ETRS89}`,
  },
  {
    epsg: 28992,
    name: 'Amersfoort / RD New',
    area: 'Netherlands',
    // Amersfoort to WGS 84 (4), EPSG:4833, 1 m (PROJ's first choice without the RDNAPTRANS grid).
    definition:
      '+proj=sterea +lat_0=52.1561605555556 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel +towgs84=565.4171,50.3319,465.5524,-0.398957388243134,0.343987817378283,-1.87740163998045,4.0725 +units=m +no_defs',
  },
  {
    epsg: 2180,
    name: 'ETRF2000-PL / CS92',
    area: 'Poland',
    definition: `+proj=tmerc +lat_0=0 +lon_0=19 +k=0.9993 +x_0=500000 +y_0=-5300000 ${ETRS89}`,
  },
  {
    epsg: 3003,
    name: 'Monte Mario / Italy zone 1',
    area: 'Italy west of 12°E',
    definition: `+proj=tmerc +lat_0=0 +lon_0=9 +k=0.9996 +x_0=1500000 +y_0=0 ${MONTE_MARIO}`,
  },
  {
    epsg: 3004,
    name: 'Monte Mario / Italy zone 2',
    area: 'Italy east of 12°E',
    definition: `+proj=tmerc +lat_0=0 +lon_0=15 +k=0.9996 +x_0=2520000 +y_0=0 ${MONTE_MARIO}`,
  },
  {
    epsg: 23700,
    name: 'HD72 / EOV',
    area: 'Hungary',
    // HD72 to WGS 84 (4), EPSG:1242, 1 m (a 3-parameter shift).
    definition:
      '+proj=somerc +lat_0=47.1443937222222 +lon_0=19.0485717777778 +k_0=0.99993 +x_0=650000 +y_0=200000 +ellps=GRS67 +towgs84=52.17,-71.82,-14.9,0,0,0,0 +units=m +no_defs',
  },
  {
    epsg: 3301,
    name: 'Estonian Coordinate System of 1997',
    area: 'Estonia',
    definition: `+proj=lcc +lat_0=57.5175539305556 +lon_0=24 +lat_1=59.3333333333333 +lat_2=58 +x_0=500000 +y_0=6375000 ${ETRS89}`,
  },
  {
    epsg: 3059,
    name: 'LKS92 / Latvia TM',
    area: 'Latvia',
    definition: `+proj=tmerc +lat_0=0 +lon_0=24 +k=0.9996 +x_0=500000 +y_0=-6000000 ${ETRS89}`,
  },
  {
    epsg: 3346,
    name: 'LKS94 / Lithuania TM',
    area: 'Lithuania',
    definition: `+proj=tmerc +lat_0=0 +lon_0=24 +k=0.9998 +x_0=500000 +y_0=0 ${ETRS89}`,
  },
  {
    epsg: 3763,
    name: 'ETRS89 / Portugal TM06',
    area: 'Portugal (mainland)',
    definition: `+proj=tmerc +lat_0=39.6682583333333 +lon_0=-8.13310833333333 +k=1 +x_0=0 +y_0=0 ${ETRS89}`,
  },
  {
    epsg: 2157,
    name: 'IRENET95 / Irish Transverse Mercator',
    area: 'Ireland; Northern Ireland',
    definition: `+proj=tmerc +lat_0=53.5 +lon_0=-8 +k=0.99982 +x_0=600000 +y_0=750000 ${ETRS89}`,
  },
  {
    epsg: 29903,
    name: 'TM75 / Irish Grid',
    area: 'Ireland; Northern Ireland',
    // TM75 to WGS 84 (2), EPSG:1954, 1 m. The Airy Modified ellipsoid is given by its axes, as PROJ exports it.
    definition:
      '+proj=tmerc +lat_0=53.5 +lon_0=-8 +k=1.000035 +x_0=200000 +y_0=250000 +a=6377340.189 +rf=299.3249646 +towgs84=482.5,-130.6,564.6,-1.042,-0.214,-0.631,8.15 +units=m +no_defs',
  },
  {
    epsg: 3794,
    name: 'Slovenia 1996 / Slovene National Grid',
    area: 'Slovenia',
    definition: `+proj=tmerc +lat_0=0 +lon_0=15 +k=0.9999 +x_0=500000 +y_0=-5000000 ${ETRS89}`,
  },
  {
    epsg: 3765,
    name: 'HTRS96 / Croatia TM',
    area: 'Croatia',
    definition: `+proj=tmerc +lat_0=0 +lon_0=16.5 +k=0.9999 +x_0=500000 +y_0=0 ${ETRS89}`,
  },
  {
    epsg: 2193,
    name: 'NZGD2000 / New Zealand Transverse Mercator 2000',
    area: 'New Zealand',
    definition: `+proj=tmerc +lat_0=0 +lon_0=173 +k=0.9996 +x_0=1600000 +y_0=10000000 ${ETRS89}`,
  },
];

function generated(): EpsgDefinition[] {
  const out: EpsgDefinition[] = [];
  // RGF93 / CC42-CC50 (EPSG:3942-3950): France's nine conic zones, one per degree of latitude.
  for (let lat = 42; lat <= 50; lat++) {
    out.push({
      epsg: 3900 + lat,
      name: `RGF93 v1 / CC${lat}`,
      area: `France between ${lat - 1}°N and ${lat + 1}°N`,
      definition: `+proj=lcc +lat_0=${lat} +lon_0=3 +lat_1=${lat - 0.75} +lat_2=${lat + 0.75} +x_0=1700000 +y_0=${(lat - 41) * 1_000_000 + 200_000} ${ETRS89}`,
    });
  }
  // MGI / Austria GK West, Central, East (EPSG:31254-31256) and M28, M31, M34 (EPSG:31257-31259): the same three
  // meridians, with and without a false easting.
  const austria: ReadonlyArray<readonly [epsg: number, suffix: string, lon0: string, x0: number]> = [
    [31254, 'GK West', '10.3333333333333', 0],
    [31255, 'GK Central', '13.3333333333333', 0],
    [31256, 'GK East', '16.3333333333333', 0],
    [31257, 'GK M28', '10.3333333333333', 150_000],
    [31258, 'GK M31', '13.3333333333333', 450_000],
    [31259, 'GK M34', '16.3333333333333', 750_000],
  ];
  for (const [epsg, suffix, lon0, x0] of austria) {
    out.push({
      epsg,
      name: `MGI / Austria ${suffix}`,
      area: `Austria around ${degreesMinutes(Number(lon0))}`,
      definition: `+proj=tmerc +lat_0=0 +lon_0=${lon0} +k=1 +x_0=${x0} +y_0=-5000000 ${MGI}`,
    });
  }
  // ETRS89 / GK19FIN-GK31FIN (EPSG:3873-3885): Finland's one-degree zones used by municipalities and on large-scale maps.
  for (let lon = 19; lon <= 31; lon++) {
    out.push({
      epsg: 3854 + lon,
      name: `ETRS89 / GK${lon}FIN`,
      area: `Finland between ${lon - 0.5}°E and ${lon + 0.5}°E`,
      definition: `+proj=tmerc +lat_0=0 +lon_0=${lon} +k=1 +x_0=${lon * 1_000_000 + 500_000} +y_0=0 ${ETRS89}`,
    });
  }
  // ETRF2000-PL / CS2000 zones 5-8 (EPSG:2176-2179): Poland's three-degree zones.
  for (let zone = 5; zone <= 8; zone++) {
    const lon = zone * 3;
    out.push({
      epsg: 2171 + zone,
      name: `ETRF2000-PL / CS2000/${lon}`,
      area: `Poland between ${lon - 1.5}°E and ${lon + 1.5}°E`,
      definition: `+proj=tmerc +lat_0=0 +lon_0=${lon} +k=0.999923 +x_0=${zone * 1_000_000 + 500_000} +y_0=0 ${ETRS89}`,
    });
  }
  // ETRS89 / UTM zones 32N, 33N, 35N + NN2000 height (EPSG:5972, 5973, 5975): what Norwegian map data is delivered in.
  // Only the horizontal part is used; heights pass through unchanged, as for every other system here.
  for (const zone of [32, 33, 35]) {
    out.push({
      epsg: 5940 + zone,
      name: `ETRS89 / UTM zone ${zone}N + NN2000 height`,
      area: `Norway ${utmZoneBand(zone)}`,
      definition: `+proj=utm +zone=${zone} ${ETRS89}`,
    });
  }
  // GDA94 and GDA2020 / MGA zones 49-56 (EPSG:28349-28356, 7849-7856): Australia's UTM grids.
  for (let zone = 49; zone <= 56; zone++) {
    const band = `Australia ${utmZoneBand(zone)}`;
    for (const [base, datum] of [
      [28300, 'GDA94'],
      [7800, 'GDA2020'],
    ] as const) {
      out.push({
        epsg: base + zone,
        name: `${datum} / MGA zone ${zone}`,
        area: band,
        definition: `+proj=utm +zone=${zone} +south ${GDA}`,
      });
    }
  }
  return out;
}

function degreesMinutes(lon: number): string {
  const whole = Math.floor(lon);
  return `${whole}°${Math.round((lon - whole) * 60)}′E`;
}

/** Every national grid of this file. */
export const NATIONAL_GRIDS: readonly EpsgDefinition[] = [...FIXED, ...generated()];
