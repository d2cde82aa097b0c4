// The direction imports may take between the folders of src/ (README "How the code is laid out"). Checked by
// `npm run lint:deps` inside `npm test`, and by test/unit/architecture.test.ts, which also shows that a wrong import
// fails. Data flows one way: cli -> (jobs, simulator) -> store -> (resources, match, links, pictures, maps, auth) -> ems -> (iof, gps)
// -> (xml, geo) -> core (README draws it).
/** @type {import('dependency-cruiser').IConfiguration} */

// What each folder may import from the others (besides itself, errors.ts and config.ts, which everything may use).
// Every list only names folders that sit lower in the picture, which is what keeps folders free of cycles.
const ALLOWED = {
  core: [],
  xml: ['core'],
  geo: ['core'],
  iof: ['xml', 'geo', 'core'],
  gps: ['xml', 'geo', 'core'],
  auth: ['core'],
  resources: ['iof', 'gps', 'geo', 'xml', 'core'],
  ems: ['iof', 'xml', 'geo', 'core'],
  // match scores what it is given: its candidate shapes are its own, so it never depends on the service layer.
  match: ['ems', 'iof', 'geo', 'core'],
  links: ['core'],
  // Pages and drawings (the course map, the status page): pure, handed what they draw, in shapes of their own.
  pictures: ['iof', 'geo', 'core'],
  // The map to publish: image headers, world files, the georeference and its fit to the course file's controls.
  maps: ['iof', 'geo', 'core'],
  // The state file: what it stores has the shapes of service answers and portal events.
  store: ['resources', 'ems', 'core'],
  jobs: [
    'client',
    'auth',
    'store',
    'resources',
    'ems',
    'match',
    'links',
    'pictures',
    'maps',
    'iof',
    'gps',
    'geo',
    'xml',
    'core',
  ],
  // The simulator answers with the same zod schemas the client checks answers with (STYLE.md #14).
  simulator: ['resources', 'iof', 'gps', 'geo', 'xml', 'core'],
};
const FOLDERS = Object.keys(ALLOWED);
const TOP_LEVEL = ['errors', 'config'];

// The CLI's start-up modules: what `livelox-bridge <command> --help`, `--version`, a usage mistake and `completion`
// load before any command runs (src/cli/spec.ts). They import, at run time, only each other (and Node's own modules):
// a command's run, the client, a job, an npm package load later, through the lazy `import()` of a spec's `load`.
const START_UP = [
  '^src/cli/(main|run|registry|spec|command|help|suggest|hints|json-output|shared-options|environment|version|import-wait|signals)\\.ts$',
  '^src/cli/commands/[^/]+/spec\\.ts$',
  '^src/(errors|config)\\.ts$',
  // Constants the specs show (link formats, the default template, sort properties, page sizes): small and pure.
  '^src/links/(render|template|portal|fragment)\\.ts$',
  '^src/core/(html|printable|hash)\\.ts$',
  '^src/resources/event-search-terms\\.ts$',
];

const folderRules = FOLDERS.map((folder) => ({
  name: `${folder}-imports-only-lower-folders`,
  comment: `src/${folder}/ may import only ${ALLOWED[folder].join(', ') || 'nothing but errors.ts and config.ts'}`,
  severity: 'error',
  from: { path: `^src/${folder}/` },
  to: {
    path: '^src/',
    pathNot: [
      `^src/${folder}/`,
      ...ALLOWED[folder].map((f) => (f === 'client' ? '^src/client\\.ts$' : `^src/${f}/`)),
      ...TOP_LEVEL.map((f) => `^src/${f}\\.ts$`),
    ],
  },
}));

module.exports = {
  forbidden: [
    ...folderRules,
    {
      name: 'no-circular',
      comment:
        'No module may depend on itself through others. A cycle closed by a lazy import() is no load-order cycle: a ' +
        "command's spec loads its run that way, and the run reads the spec's option table.",
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
    {
      name: 'start-up-modules-stay-light',
      comment:
        "The CLI's start-up modules (START_UP) import only each other at run time: --help and --version never load " +
        "a command's run, the client, a job or an npm package. Types and lazy import() are free.",
      severity: 'error',
      from: { path: START_UP },
      to: { pathNot: START_UP, dependencyTypesNot: ['core', 'type-only', 'dynamic-import'] },
    },
    {
      name: 'geo-never-imports-iof',
      comment: 'Projections know points, not courses: course projection lives in iof/, which uses geo/.',
      severity: 'error',
      from: { path: '^src/geo/' },
      to: { path: '^src/iof/' },
    },
    {
      name: 'pure-folders-stay-off-the-network',
      comment: 'xml, iof, geo, match, links, pictures and maps are pure: no service calls, no jobs, no CLI, no HTTP.',
      severity: 'error',
      from: { path: '^src/(xml|iof|geo|match|links|pictures|maps)/' },
      to: { path: ['^src/(resources|jobs|cli)/', '^src/client\\.ts$', '^(node:)?https?$', '^node_modules/undici/'] },
    },
    {
      name: 'only-cli-and-jobs-use-the-client',
      comment: 'The client is composed by jobs and the CLI; library layers below them are handed data.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/(cli|jobs)/', '^src/index\\.ts$', '^src/client\\.ts$'] },
      to: { path: '^src/client\\.ts$' },
    },
    {
      name: 'cli-commands-never-import-each-other',
      comment:
        "Each command is its folder (spec.ts, run.ts, ...); what commands share lives in src/cli/, not in another command's folder.",
      severity: 'error',
      from: { path: '^src/cli/commands/([^/]+)/' },
      to: { path: '^src/cli/commands/', pathNot: '^src/cli/commands/$1/' },
    },
    {
      name: 'nothing-imports-the-cli',
      comment: 'The CLI is the outermost layer.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'nothing-imports-the-public-entry-points',
      comment: 'index.ts files are for library users; inside src/, modules import what they use directly.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/(index|iof/index|simulator/index)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // npm packages stay in the graph (not followed into) so that rules can name them: start-up modules load none.
    exclude: { path: '^dist/' },
  },
};
