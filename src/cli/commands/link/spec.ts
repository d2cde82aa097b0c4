/** `livelox-bridge link`: its options and help, read without loading the link job (spec.ts at src/cli explains). */
import { LINK_FORMATS } from '../../../links/render.js';
import { DEFAULT_LINK_TEMPLATE, LINK_PLACEHOLDERS } from '../../../links/template.js';
import { SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

/** `table` is the CLI's own (a terminal's columns); the rest are the renderings of links/render.ts. */
export const LINK_OUTPUT_FORMATS = ['table', ...LINK_FORMATS] as const;

export const linkOptions = defineOptions({
  'event-id': { type: 'string', valueName: 'N', description: 'the service event id (skips the search)' },
  country: {
    type: 'string',
    valueName: 'X',
    description: "the event's country (alpha-3, alpha-2 or name) when the export does not say or says wrong",
  },
  race: { type: 'string', valueName: 'N', description: 'the race (day) of a multi-race export, 1-based' },
  format: {
    type: 'string',
    choices: LINK_OUTPUT_FORMATS,
    description: 'how to print the links (default table; json with --json)',
  },
  template: {
    type: 'string',
    valueName: 'T',
    description: `link for classes without a service url (default ${DEFAULT_LINK_TEMPLATE})`,
  },
  'no-courses': { type: 'boolean', description: "never fetch the service's courses to map classes" },
  'always-template': {
    type: 'boolean',
    description: "build every link from --template, even where the service gives the class's url",
  },
  strict: { type: 'boolean', description: 'exit 1 when a class of the export has no service class' },
  lang: {
    type: 'string',
    valueName: 'TAG',
    description: "with --format html: the fragment's language (lang attribute; default en)",
  },
  'no-links-text': {
    type: 'string',
    valueName: 'TEXT',
    description: 'with --format html: what the fragment says when there are no links (default "No links yet.")',
  },
  out: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'write the links to FILE (replaced atomically)',
  },
  ...SERVICE_OPTIONS,
});

export const linkSpec = defineCommand({
  name: 'link',
  summary: "Find an event system's event on the service, map its classes and print a viewer link per class.",
  usage: [
    `link <ems-file> [--event-id N] [--country X] [--race N] [--format ${LINK_OUTPUT_FORMATS.join('|')}] [--out FILE]`,
    'link --event-id N [--format FORMAT] [--out FILE]',
  ],
  arguments: { name: 'ems-file', complete: 'file' },
  options: linkOptions,
  details: [
    'The export is an IOF XML file (3.0 or 2.0.3: class, entry, start or result list, course data with class',
    'assignments) or an EMS JSON file (docs/ems-json.md). The event is searched in its country around its dates and',
    'chosen only when it leads clearly; otherwise the candidates are listed with their scores (exit 1).',
    'Classes map by name across conventions (H21/M21/Men 21, D21E/W21 Elite, Öppen/Open...), then by course.',
    `Template placeholders: ${LINK_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}.`,
    'Example: livelox-bridge link startlist.xml --simulator',
    'Example: livelox-bridge link results.xml --event-id 12345 --format html --out links.html',
  ].join('\n'),
  exitCodes: {
    0: 'linked',
    1: 'the event is ambiguous or not found, the work failed, or (with --strict) a class of the export is unmapped',
  },
  load: () => import('./run.js'),
});
