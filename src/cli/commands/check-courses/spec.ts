/** `livelox-bridge check-courses`: its options and help, read without loading the comparison or the validator. */
import { ALL_SCHEMA_ERRORS_OPTION, SCHEMA_OPTIONS, SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

export const checkCoursesOptions = defineOptions({
  'event-id': { type: 'string', valueName: 'N', description: 'the event on the service to compare with (required)' },
  'tolerance-m': {
    type: 'string',
    valueName: 'M',
    description: 'metres a control may be apart on the two sides before it counts as moved (default 10)',
  },
  'length-tolerance-pct': {
    type: 'string',
    valueName: 'P',
    description: 'per cent a course length may differ by, at least 10 m (default 1)',
  },
  'climb-tolerance-m': {
    type: 'string',
    valueName: 'M',
    description: 'metres a course climb may differ by (default 5)',
  },
  race: {
    type: 'string',
    valueName: 'N',
    description: "the race of a multi-race organiser file, by number (default: the file's first race)",
  },
  epsg: {
    type: 'string',
    valueName: 'N',
    description: 'ask the service for positions in this EPSG grid and compare in it, in metres (default WGS 84)',
  },
  'organiser-epsg': {
    type: 'string',
    valueName: 'N',
    description:
      "the grid the organiser's positions are in when they are not degrees (old Condes files: 27700); EPSG code or proj4 definition",
  },
  html: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'also write the check as a self-contained HTML page: a map of each course, the classes, the report',
  },
  svg: {
    type: 'string',
    valueName: 'DIR',
    complete: 'directory',
    description: 'also write one SVG map per course into DIR (created if missing; files named after the courses)',
  },
  all: ALL_SCHEMA_ERRORS_OPTION,
  'allow-uncompared': {
    type: 'boolean',
    description:
      'exit 0 when nothing differs even if control positions could not (all) be compared, or without the IOF schema',
  },
  ...SCHEMA_OPTIONS,
  ...SERVICE_OPTIONS,
});

export const checkCoursesSpec = defineCommand({
  name: 'check-courses',
  summary: "Compare the organiser's course file with the courses the service holds for an event.",
  usage:
    'check-courses <CourseData.xml> --event-id N [--tolerance-m 10] [--length-tolerance-pct 1] [--climb-tolerance-m 5] ' +
    '[--race N] [--epsg N] [--organiser-epsg N] [--html FILE] [--svg DIR] [--allow-uncompared] [--schema FILE] [--dtd FILE] [--all]',
  arguments: { name: 'course file', complete: 'file' },
  options: checkCoursesOptions,
  details: [
    "Both files are validated against the IOF schema (the organiser's may be IOF 2.0.3) and compared: courses missing",
    'on either side, controls (matched by code) missing or moved by more than the tolerance, control sequences,',
    'lengths and climbs, and which course each class runs. Schema errors are reported with their lines, and a file',
    'that is not valid is still compared. Notes say what could not be compared and why (no positions, a grid).',
    'Only controls some course uses are compared; courses by name and classes by name, ignoring case and spaces.',
    'With --json: {"ok","same","verdict":"same|different|not_compared|not_published","notCompared":["positions"|"schema"],',
    '"positions":{status,controls,reason?,message?},"schema":{status,reason?,message?},"publication"?:{...},"eventId","organiser":{source,iofVersion,valid,checked,issues,courses,controls,',
    'classes,races,race},"service":{...},"comparedIn","positionsCompared","georeference"?:{explains,shiftM,',
    'shiftBearingDeg,rotationDeg,scale,residuals,message,...},"tolerances","findings":[{kind (georeference_differs,',
    'control_moved...),course?,',
    'control?,class?,message,organiser?,service?,distanceM?,toleranceM?,position?}],"notes":[{code,message}]}.',
    "With --html and --svg the same check is also drawn: each course in a metric plane with both sides' controls,",
    'an arrow for each moved control, controls missing on one side marked; files are replaced atomically.',
    'See docs/check-courses.md. Example: livelox-bridge check-courses CourseData.xml --event-id 12345 --epsg 3006',
  ].join('\n'),
  exitCodes: {
    0: "the service holds exactly the organiser's courses",
    1:
      'anything differs or a file is not valid; the service shows no courses for the event yet (NOT PUBLISHED); ' +
      'nothing differs but positions or the schema check could not be done (NOT COMPARED) unless ' +
      '--allow-uncompared; without IOF.xsd (and without --allow-uncompared) at once, before anything is read or ' +
      'asked, with the ways to get it; or the check could not be done',
  },
  load: () => import('./run.js'),
});
