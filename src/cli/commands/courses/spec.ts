/** `livelox-bridge courses`: its options and help, read without loading the client or proj4. */
import { SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

export const coursesOptions = defineOptions({
  epsg: {
    type: 'string',
    valueName: 'N',
    description: 'EPSG code of the projection for control coordinates, projected by the service (default WGS84)',
  },
  proj4: {
    type: 'string',
    valueName: 'DEF',
    description: 'a proj4 definition for control coordinates, projected here from the WGS84 the service sends',
  },
  'no-controls': { type: 'boolean', description: 'leave out the controls' },
  'no-class-connections': { type: 'boolean', description: 'leave out the class connections of the courses' },
  'no-classes': { type: 'boolean', description: 'leave out the class sub-objects' },
  out: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'write the XML to FILE (replaced atomically)',
  },
  ...SERVICE_OPTIONS,
});

export const coursesSpec = defineCommand({
  name: 'courses',
  summary: "Fetch an event's courses as IOF XML 3.0 (to stdout, or atomically to a file with --out).",
  usage:
    'courses <eventId> [--epsg N | --proj4 DEFINITION] [--no-controls] [--no-class-connections] [--no-classes] [--out FILE]',
  arguments: { name: 'event id' },
  options: coursesOptions,
  details: [
    'The bytes are written as the service sent them. Courses that are not public yet are left out by the service.',
    'With --json and --out: {"ok":true,"file":...,"bytes":N}; with --json alone: {"ok":true,"eventId":N,"bytes":N,"xml":...}.',
    'A key without course access is refused (exit 1) with what to ask the service operator for.',
    'Example: livelox-bridge courses 12345 --epsg 3006 --out courses.xml',
    'Example: livelox-bridge courses 12345 --proj4 "+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +units=m"',
  ].join('\n'),
  load: () => import('./run.js'),
});
