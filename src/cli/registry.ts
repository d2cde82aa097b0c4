/**
 * The list of commands, each with its one-line summary and a loader. A command's modules (the client, the XML reader,
 * the state store, the simulator...) load only when that command runs: `--version`, `--help` and a usage mistake cost
 * about as much as starting Node itself (the start-up figure is in `npm run bench startup`).
 */
import type { Command } from './command.js';

export interface CommandEntry {
  name: string;
  /** One line for the main help and the top of the command's help. */
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'link',
    summary: "Find an event system's event on the service, map its classes and print a viewer link per class.",
    load: async () => (await import('./commands/link.js')).linkCommand,
  },
  {
    name: 'sync',
    summary: 'Keep every event of a portal linked to its service event: a nightly job with its state in SQLite.',
    load: async () => (await import('./commands/sync.js')).syncCommand,
  },
  {
    name: 'demo',
    summary: 'Start the embedded simulator, show what it serves over HTTP, and stop.',
    load: async () => (await import('./commands/demo.js')).demoCommand,
  },
  {
    name: 'events',
    summary: 'Search events by time, text, place, country and flags; one page or every page.',
    load: async () => (await import('./commands/events.js')).eventsCommand,
  },
  {
    name: 'event',
    summary: "Show one event's details and its classes with their viewer links.",
    load: async () => (await import('./commands/event.js')).eventCommand,
  },
  {
    name: 'countries',
    summary: 'List the countries of the service with their ids and ISO 3166-1 alpha-3 codes.',
    load: async () => (await import('./commands/countries.js')).countriesCommand,
  },
  {
    name: 'courses',
    summary: "Fetch an event's courses as IOF XML 3.0 (to stdout, or atomically to a file with --out).",
    load: async () => (await import('./commands/courses.js')).coursesCommand,
  },
  {
    name: 'check-courses',
    summary: "Compare the organiser's course file with the courses the service holds for an event.",
    load: async () => (await import('./commands/check-courses.js')).checkCoursesCommand,
  },
  {
    name: 'import',
    summary: 'Import GPS routes (GPX, TCX, FIT files, folders, globs) exactly once, resumable after a stop or crash.',
    load: async () => (await import('./commands/import.js')).importCommand,
  },
  {
    name: 'inspect',
    summary:
      'Show what an IOF XML file holds: encoding, version, event, classes, courses, controls, and problems found.',
    load: async () => (await import('./commands/inspect.js')).inspectCommand,
  },
  {
    name: 'validate',
    summary: 'Validate IOF XML files against the IOF 3.0 schema (one batch), optionally with the course-data lint.',
    load: async () => (await import('./commands/validate.js')).validateCommand,
  },
  {
    name: 'schema',
    summary:
      "Fetch the IOF's schema files into the cache (`schema fetch`), or say which copy validation uses (`schema status`).",
    load: async () => (await import('./commands/schema.js')).schemaCommand,
  },
  {
    name: 'status',
    summary: 'Show the import state of a route (pending, imported with viewer links, or error with the reason).',
    load: async () => (await import('./commands/status.js')).statusCommand,
  },
  {
    name: 'login',
    summary: 'Log in to Livelox in a browser (OAuth 2.0 with PKCE) and keep the tokens for the other commands.',
    load: async () => (await import('./commands/login.js')).loginCommand,
  },
  {
    name: 'logout',
    summary: 'Revoke the login tokens at the service and remove them from this machine.',
    load: async () => (await import('./commands/logout.js')).logoutCommand,
  },
  {
    name: 'whoami',
    summary: 'Show the logged-in user (name, person id, email), the granted scopes and when the access token expires.',
    load: async () => (await import('./commands/whoami.js')).whoamiCommand,
  },
  {
    name: 'simulator',
    summary: 'Run a local simulator of the service (API, OAuth2, viewer pages) for tests, demos and CI.',
    load: async () => (await import('./commands/simulator.js')).simulatorCommand,
  },
];
