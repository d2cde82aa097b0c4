/** `livelox-bridge validate`: its options and help, read without loading the validator. */
import { ALL_SCHEMA_ERRORS_OPTION, SCHEMA_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

export const validateOptions = defineOptions({
  lint: {
    type: 'boolean',
    description: 'also lint course data (positions, undefined controls, leg lengths, duplicates, times)',
  },
  all: ALL_SCHEMA_ERRORS_OPTION,
  ...SCHEMA_OPTIONS,
});

export const validateSpec = defineCommand({
  name: 'validate',
  summary: 'Validate IOF XML files against the IOF 3.0 schema (one batch), optionally with the course-data lint.',
  usage: 'validate <files...> [--lint] [--all] [--schema FILE] [--dtd FILE]',
  arguments: { name: 'files', complete: 'file' },
  options: validateOptions,
  details: [
    'Prints one verdict per file: VALID, INVALID (with file:line: message per error), NOT CHECKED (an IOF 2.0.3 file',
    'when no 2.0.3 DTD was found; not counted as invalid) or UNREADABLE. IOF 3.0 files are checked against IOF.xsd,',
    '2.0.3 files against their DTD, each found by --schema/--dtd, IOF_XSD/IOF_DTD, the package, then the cache',
    '(`livelox-bridge schema fetch` fills it; `schema status` shows which copy is used). Without IOF.xsd nothing is read:',
    'exit 1 at once. The other files are still checked when one cannot be read. With --lint, lint findings follow each',
    'course-data file as severity, code, path and message.',
    'With --json: {"ok":bool,"files":[{"file","status","version","errors":[{line,code,message}],"lint":[...]}]},',
    'every error listed.',
    'Example: livelox-bridge validate exports/*.xml --lint',
  ].join('\n'),
  exitCodes: {
    0: 'every file is valid (or not checked), without lint errors',
    1: 'a file is invalid or unreadable, or (with --lint) has a lint error',
  },
  load: () => import('./run.js'),
});
