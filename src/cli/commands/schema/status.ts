/** `livelox-bridge schema status`: which copy of IOF.xsd and of the 2.0.3 DTD validation uses, and why. */
import { createHash } from 'node:crypto';
import { readInputFile } from '../../../core/files.js';
import {
  findIofSchema,
  GRAMMAR_FILE_NAMES,
  iofSchemaCacheDir,
  type IofGrammarKind,
  type IofSchemaLookup,
  type IofSchemaLookupStep,
} from '../../../iof/schema-path.js';
import { MAX_GRAMMAR_BYTES } from '../../../iof/validate/grammar.js';
import { IOF_SCHEMA_SOURCES } from '../../../jobs/fetch-schema.js';
import { stringOption } from '../../command.js';
import { clean, paint, terminal, type Terminal } from '../../format.js';
import { printJson } from '../../json-output.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { schemaStatusOptions } from './spec.js';

const WHAT: Readonly<Record<IofGrammarKind, string>> = {
  xsd: 'the IOF XML 3.0 schema',
  dtd: 'the IOF 2.0.3 DTD',
};

interface GrammarStatus {
  kind: IofGrammarKind;
  file: string;
  path?: string;
  source?: IofSchemaLookup['source'];
  sha256?: string;
  /** Whether the copy used is byte for byte the IOF's published file that `schema fetch` gets. */
  published?: boolean;
  steps: IofSchemaLookupStep[];
}

export async function run(
  values: Values<typeof schemaStatusOptions>,
  _args: string[],
  ctx: CommandContext,
): Promise<number> {
  const schema = stringOption(values, 'schema');
  const dtd = stringOption(values, 'dtd');
  const grammars = await Promise.all([
    grammarStatus(findIofSchema({ kind: 'xsd', env: ctx.env, ...(schema === undefined ? {} : { path: schema }) })),
    grammarStatus(findIofSchema({ kind: 'dtd', env: ctx.env, ...(dtd === undefined ? {} : { path: dtd }) })),
  ]);
  const [xsd, dtdStatus] = grammars;
  const ok = xsd.path !== undefined;
  const cacheDir = iofSchemaCacheDir({ env: ctx.env });
  if (ctx.json) {
    printJson(ctx, ok, { cacheDir: cacheDir ?? null, schema: xsd, dtd: dtdStatus });
  } else {
    const term = terminal(ctx.env);
    ctx.io.out(
      [
        ...statusLines(xsd, term),
        '',
        ...statusLines(dtdStatus, term),
        '',
        `Cache directory: ${cacheDir === undefined ? 'none (no home directory)' : clean(cacheDir)}`,
      ].join('\n'),
    );
  }
  return ok ? EXIT.ok : EXIT.failure;
}

async function grammarStatus(lookup: IofSchemaLookup): Promise<GrammarStatus> {
  const base = { kind: lookup.kind, file: GRAMMAR_FILE_NAMES[lookup.kind], steps: lookup.steps };
  if (lookup.path === undefined) return base;
  let sha256: string | undefined;
  try {
    sha256 = createHash('sha256')
      .update(await readInputFile(lookup.path, { maxBytes: MAX_GRAMMAR_BYTES }))
      .digest('hex');
  } catch {
    // Found but unreadable: the path is still the one validation would try, and says so when it does.
  }
  return {
    ...base,
    path: lookup.path,
    ...(lookup.source === undefined ? {} : { source: lookup.source }),
    ...(sha256 === undefined ? {} : { sha256, published: sha256 === IOF_SCHEMA_SOURCES[lookup.kind].sha256 }),
  };
}

function statusLines(g: GrammarStatus, term: Terminal): string[] {
  const head = `${paint(g.file, 'bold', term.color)} (${WHAT[g.kind]}): `;
  const fetchCommand = g.kind === 'xsd' ? 'livelox-bridge schema fetch' : 'livelox-bridge schema fetch dtd';
  const found =
    g.path === undefined
      ? g.kind === 'xsd'
        ? 'not found: validate and check-courses cannot run'
        : 'not found: IOF 2.0.3 files are reported as not checked'
      : clean(g.path);
  const lines = [`${head}${found}`];
  // The step that decided for the ones after it: the one that gave the file, or a path named that was not there.
  const decided = g.steps.findIndex((s) => s.status === 'used' || (s.status === 'missing' && isExplicit(s)));
  const decision =
    decided < 0
      ? ''
      : g.steps[decided]?.status === 'used'
        ? `step ${decided + 1} gave the file`
        : `step ${decided + 1} names a file that is not there, and no other copy replaces it`;
  g.steps.forEach((step, i) =>
    lines.push(`  ${i + 1}. ${stepLabel(step, g.kind).padEnd(10)}${clean(stepText(step, decision))}`),
  );
  if (g.sha256 !== undefined) {
    lines.push(
      `  sha256 ${g.sha256}${g.published ? " (the IOF's published file)" : ' (not the file `schema fetch` gets)'}`,
    );
  }
  if (g.path === undefined) {
    const [flag, variable] = g.kind === 'xsd' ? ['--schema FILE', 'IOF_XSD'] : ['--dtd FILE', 'IOF_DTD'];
    lines.push(`  To get it: run \`${fetchCommand}\`, set ${variable} to a copy, or give one with ${flag}.`);
  }
  return lines;
}

function stepLabel(step: IofSchemaLookupStep, kind: IofGrammarKind): string {
  switch (step.source) {
    case 'option':
      return kind === 'xsd' ? '--schema' : '--dtd';
    case 'environment':
      return step.variable ?? (kind === 'xsd' ? 'IOF_XSD' : 'IOF_DTD');
    case 'package':
      return 'package';
    case 'cache':
      return 'cache';
  }
}

function isExplicit(step: IofSchemaLookupStep): boolean {
  return step.source === 'option' || step.source === 'environment';
}

function stepText(step: IofSchemaLookupStep, decision: string): string {
  const via = step.source === 'cache' && step.variable !== undefined ? ` (${step.variable})` : '';
  const at = step.path === undefined ? '' : `${step.path}${via}: `;
  switch (step.status) {
    case 'used':
      return `${at}found, used`;
    case 'missing':
      return `${at}not there${step.detail === undefined ? '' : ` (${step.detail})`}`;
    case 'skipped':
      return `${at}not looked at: ${decision}`;
    case 'unset':
      return step.source === 'option'
        ? 'not given'
        : step.source === 'environment'
          ? 'not set'
          : step.source === 'package'
            ? 'not looked at'
            : 'no cache directory (no home directory)';
  }
}
