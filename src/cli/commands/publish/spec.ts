/** `livelox-bridge publish`: its options, help and exit codes, read without loading the job, the maps or SQLite. */
import { SCHEMA_OPTIONS, SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

/** Exit code beyond the common ones: the state file cannot be used (damaged, another program's, newer). */
export const PUBLISH_EXIT = { state: 4 } as const;

/** Where a dry run writes without --out. */
export const DEFAULT_DRY_RUN_FOLDER = 'publish-dry-run';

const stateOption = {
  type: 'string',
  valueName: 'FILE',
  complete: 'file',
  description: 'the state file (default ~/.local/share/livelox-bridge/publish.sqlite)',
} as const;

export const publishOptions = defineOptions({
  map: {
    type: 'string',
    valueName: 'IMAGE',
    complete: 'file',
    description: 'the map image: PNG, JPEG, GIF or TIFF, without courses, covering the paper extent (required)',
  },
  'world-file': {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: "georeference the image by this world file (.pgw, .jgw, .tfw, .wld), in --map-epsg's grid",
  },
  'map-epsg': {
    type: 'string',
    valueName: 'N',
    description: "the world file's grid: an EPSG code or a proj4 definition",
  },
  corners: {
    type: 'string',
    valueName: 'LAT,LNG;...',
    description: 'georeference the image by its four corners in WGS 84: bottom-left; bottom-right; top-right; top-left',
  },
  'map-scale': {
    type: 'string',
    valueName: 'N',
    description: "the map's scale denominator, 10000 for 1:10 000 (default: the course file's Map/Scale)",
  },
  'positions-epsg': {
    type: 'string',
    valueName: 'N',
    description: "the grid of the course file's control positions when they are not degrees (old Condes files: 27700)",
  },
  name: { type: 'string', valueName: 'TEXT', description: "the event's name (default: the course file's event name)" },
  race: {
    type: 'string',
    valueName: 'N',
    description: "the race of a multi-race course file, by number (default: the file's first race)",
  },
  'course-prints': {
    type: 'string',
    valueName: 'DIR',
    complete: 'directory',
    description: 'send the files in DIR as course prints (one per course, as Purple Pen sends PDFs)',
  },
  state: stateOption,
  new: { type: 'boolean', description: 'publish as another event even when this file was published before' },
  open: { type: 'boolean', description: 'open the import address in the browser (it is printed anyway)' },
  check: {
    type: 'boolean',
    description: "after an import, compare the service's courses with the file (check-courses) and include its verdict",
  },
  'dry-run': {
    type: 'boolean',
    description:
      'check everything and write the object and files.zip into --out; say whether it would create or update; send nothing',
  },
  out: {
    type: 'string',
    valueName: 'DIR',
    complete: 'directory',
    description: `where --dry-run writes (default ./${DEFAULT_DRY_RUN_FOLDER})`,
  },
  upload: {
    type: 'string',
    choices: ['zip', 'per-file'],
    description: 'one files.zip (default, as Purple Pen sends it) or one request per file',
  },
  ...SCHEMA_OPTIONS,
  ...SERVICE_OPTIONS,
});

export const publishStatusOptions = defineOptions({ state: stateOption, ...SERVICE_OPTIONS });

export const publishStatusSpec = defineCommand({
  name: 'status',
  summary: 'List every course file published, with its state on the service, event id and addresses.',
  usage: 'publish status [--state FILE] [--json]',
  options: publishStatusOptions,
  details: [
    'Reads the state file and asks the service for each importable event (one request each): not imported, imported',
    "(with the event id), or gone (removed, or no longer this user's). With --json:",
    '{"ok","published":[{file,name,key,importableId,recorded,state,eventId?,links:{importUrl?,showUrl?,editUrl?}}]}.',
    'A course file named "status" is given as ./status. See docs/publish.md.',
  ].join('\n'),
  exitCodes: {
    0: 'every importable event was found',
    1: "a file's newest importable event is gone from the service (not one replaced since), or the service could not be asked",
    [PUBLISH_EXIT.state]: 'the state file cannot be read (damaged, newer): see the message',
  },
  load: () => import('./status.js'),
});

export const publishSpec = defineCommand({
  name: 'publish',
  summary: "Send an organiser's map and courses to the service as an importable event, or update the one sent before.",
  usage: [
    'publish <CourseData.xml> --map IMAGE [--world-file F --map-epsg N | --corners ...] [--name TEXT] [--race N] ' +
      '[--course-prints DIR] [--state FILE] [--new] [--open] [--check] [--dry-run [--out DIR]]',
    'publish status [--state FILE] [--json]',
  ],
  arguments: { name: 'course file', complete: 'file' },
  options: publishOptions,
  details: [
    'The course file (IOF XML 3.0 CourseData; a 2.0.3 file is converted to 3.0, and said so) is validated against',
    'IOF.xsd, and the map placed (by a world file, four corners, or fitted to the controls that have both a map and',
    'a geographic position), every control checked to lie on it, before anything is sent. The first publish creates',
    "an importable event (its id kept in the state file at once), uploads files.zip and shows the service's",
    'validation; a person then imports it in the browser at the address printed. Publishing the same file again',
    'updates that event, and imports it again when it was imported before. Uses the Event Integration API (observed,',
    'not published). With --json: {"ok","action":"create|update","dryRun","importableId","state","eventId","links",',
    '"validation":{errors,warnings,raw?},"files","map","convertedFrom"?,"written"?,"check"?}. See docs/publish.md.',
    'Example: livelox-bridge publish CourseData.xml --map map.png --open',
  ].join('\n'),
  exitCodes: {
    0: 'published (or, with --dry-run, checked and written); no validation error; with --check the courses are the same',
    1: "bad input (nothing sent), the service's validation found errors, --check found differences, or it failed",
    [PUBLISH_EXIT.state]:
      'the state file cannot be used (damaged, newer, or another publish holds it): see the message; nothing sent',
  },
  subcommands: [publishStatusSpec],
  load: () => import('./run.js'),
});
