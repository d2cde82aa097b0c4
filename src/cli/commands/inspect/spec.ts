/** `livelox-bridge inspect`: its options and help, read without loading the IOF reader. */
import { defineCommand, defineOptions } from '../../spec.js';

/** Rows shown per list unless --all: enough to recognise a file, short enough to read without scrolling. */
export const INSPECT_ROWS = 20;

export const inspectOptions = defineOptions({
  epsg: {
    type: 'string',
    valueName: 'N',
    description:
      'also show control positions in this grid (EPSG code or proj4 definition); positions that are not degrees are read as this grid',
  },
  all: { type: 'boolean', description: `show every row of long lists (default: the first ${INSPECT_ROWS})` },
});

export const inspectSpec = defineCommand({
  name: 'inspect',
  summary: 'Show what an IOF XML file holds: encoding, version, event, classes, courses, controls, and problems found.',
  usage: 'inspect <file> [--epsg N] [--all]',
  arguments: { name: 'file', complete: 'file' },
  options: inspectOptions,
  details: [
    'Works on every IOF message type (3.0 and 2.0.3). Course data also gets its courses, controls and lint findings:',
    'coordinates that are not degrees, undefined controls, leg lengths the positions contradict, duplicates, times',
    'without offset. When the positions are a grid (old Condes files write British National Grid), lint names the',
    'grids the numbers fit; run again with --epsg N to read them as that grid and see the controls in degrees.',
    'With --json: the whole summary, every row.',
    'Example: livelox-bridge inspect courses.xml --epsg 3006',
  ].join('\n'),
  exitCodes: { 1: 'the file cannot be read or is not IOF XML' },
  load: () => import('./run.js'),
});
