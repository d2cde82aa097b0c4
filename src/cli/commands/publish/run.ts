/** `livelox-bridge publish <CourseData.xml> --map IMAGE`: the job, its words, its exit code. */
import { StateError, ValidationError } from '../../../errors.js';
import { publishJob, type PublishResult, type PublishStep } from '../../../jobs/publish/job.js';
import type { MapGeoreferenceInput, MapInput } from '../../../maps/types.js';
import { openPublishState, type PublishStateFile } from '../../../store/publish-state.js';
import { UsageError, intOption, stringOption } from '../../command.js';
import { dataFilePath } from '../../data-dir.js';
import { clean, plural } from '../../format.js';
import { gridOption } from '../../grid-options.js';
import { errorJson, errorText, issueJson } from '../../hints.js';
import { schemaErrorLines } from '../../issue-lines.js';
import { printJson } from '../../json-output.js';
import { schemaOptions } from '../../schema-options.js';
import { openService, type ServiceSession } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import { openInBrowser, openableUrl } from './open-url.js';
import { DEFAULT_DRY_RUN_FOLDER, PUBLISH_EXIT, type publishOptions } from './spec.js';

type PublishValues = Values<typeof publishOptions>;

/** Where the state lives without --state: the user's data directory, beside sync's and import's. */
export function defaultPublishStatePath(env: Readonly<Record<string, string | undefined>>): string {
  return dataFilePath(env, 'publish.sqlite');
}

export async function run(values: PublishValues, positionals: string[], ctx: CommandContext): Promise<number> {
  if (positionals.length !== 1) {
    throw new UsageError(`takes one course file, got ${positionals.length === 0 ? 'none' : positionals.length}`);
  }
  const courseFile = positionals[0]!;
  const map = mapInput(values);
  const race = intOption(values, 'race', 1, 9999);
  const dryRun = values['dry-run'] === true;
  if (!dryRun && stringOption(values, 'out') !== undefined) throw new UsageError('--out goes with --dry-run');
  const validation = schemaOptions(values, ctx);
  const statePath = stringOption(values, 'state') ?? defaultPublishStatePath(ctx.env);
  let state: PublishStateFile;
  try {
    // A dry run reads a copy: the file is left as it is, and not created when absent.
    state = openPublishState(statePath, { readOnly: dryRun });
  } catch (err) {
    if (!(err instanceof StateError)) throw err;
    return stateFailure(ctx, err);
  }
  // A dry run sends nothing, so it needs no credentials either.
  const session = dryRun ? undefined : await openService(values, ctx, { auth: 'any' });
  const viewerUrl = session?.client.addresses.viewerUrl;
  let result: PublishResult;
  try {
    result = await publishJob(session?.client, {
      courseFile,
      map,
      state,
      validation,
      signal: ctx.signal,
      onStep: (step) => ctx.io.err(stepLine(step)),
      ...optionalJobOptions(values, race, dryRun),
    });
  } catch (err) {
    if (err instanceof StateError) return stateFailure(ctx, err);
    if (err instanceof ValidationError && err.issues.some((i) => i.code === 'schema' || i.line !== undefined)) {
      return schemaFailure(ctx, courseFile, err);
    }
    throw err;
  } finally {
    state.close();
    await closeSession(session);
  }
  return report(result, values, ctx, viewerUrl);
}

function optionalJobOptions(values: PublishValues, race: number | undefined, dryRun: boolean) {
  const name = stringOption(values, 'name');
  const prints = stringOption(values, 'course-prints');
  return {
    ...(name === undefined ? {} : { name }),
    ...(race === undefined ? {} : { race }),
    ...(prints === undefined ? {} : { coursePrints: prints }),
    ...(values.new === true ? { asNew: true } : {}),
    ...(values.check === true ? { check: true } : {}),
    ...(values.upload === undefined ? {} : { uploadMode: values.upload }),
    ...(dryRun ? { dryRunFolder: stringOption(values, 'out') ?? DEFAULT_DRY_RUN_FOLDER } : {}),
  };
}

async function closeSession(session: ServiceSession | undefined): Promise<void> {
  if (session) await session.close();
}

/** --map with its georeference: a world file and its grid, four corners, or (default) the course file's controls. */
function mapInput(values: PublishValues): MapInput {
  const image = stringOption(values, 'map');
  if (image === undefined) throw new UsageError('--map IMAGE is required: the map image to publish');
  const worldFile = stringOption(values, 'world-file');
  const grid = gridOption(values, 'map-epsg');
  const corners = stringOption(values, 'corners');
  if (worldFile !== undefined && corners !== undefined) {
    throw new UsageError('give --world-file or --corners, not both');
  }
  if ((worldFile === undefined) !== (grid === undefined)) {
    throw new UsageError('--world-file and --map-epsg go together: the world file is in that grid');
  }
  let georeference: MapGeoreferenceInput = { kind: 'courseFile' };
  if (worldFile !== undefined && grid !== undefined)
    georeference = { kind: 'worldFile', path: worldFile, system: grid };
  if (corners !== undefined) georeference = { kind: 'corners', corners: cornersOption(corners) };
  const positions = gridOption(values, 'positions-epsg');
  const scale = intOption(values, 'map-scale', 100, 1_000_000);
  return {
    image,
    georeference,
    ...(positions === undefined ? {} : { positionsSystem: positions }),
    ...(scale === undefined ? {} : { scale }),
  };
}

/** `lat,lng;lat,lng;lat,lng;lat,lng`: bottom-left, bottom-right, top-right, top-left. */
function cornersOption(raw: string): Extract<MapGeoreferenceInput, { kind: 'corners' }>['corners'] {
  const points = raw
    .split(/[;\s]+/)
    .filter(Boolean)
    .map((p) => p.split(',').map((n) => Number(n.trim())));
  const ok = (p: number[] | undefined): p is [number, number] =>
    p !== undefined && p.length === 2 && Math.abs(p[0]!) <= 90 && Math.abs(p[1]!) <= 180 && p.every(Number.isFinite);
  if (points.length !== 4 || !points.every(ok)) {
    throw new UsageError(
      '--corners takes four lat,lng pairs in WGS 84 degrees, bottom-left;bottom-right;top-right;top-left',
    );
  }
  const [bl, br, tr, tl] = points.map(([lat, lng]) => ({ lat, lng }));
  return { bottomLeft: bl!, bottomRight: br!, topRight: tr!, topLeft: tl! };
}

/** One progress line on stderr per step done. */
function stepLine(s: PublishStep): string {
  if (s.step === 'prepared') {
    return `publish: checked; ${s.dryRun ? 'would' : 'will'} ${s.action} (${plural(s.files, 'file')}, ${s.bytes} bytes)`;
  }
  if (s.step === 'other-file') {
    return (
      `publish: warning: importable event ${clean(s.importableId)} of this event name and race was published from ` +
      `${clean(s.recordedFile)}, not ${clean(s.file)}: it is updated. If this is another event, publish it as one ` +
      `with --new.`
    );
  }
  return `publish: ${s.step} importable event ${clean(s.importableId)}`;
}

/** Prints the result; opens the import address when asked. The exit code: validation errors or a check not SAME fail. */
function report(r: PublishResult, values: PublishValues, ctx: CommandContext, viewerUrl: string | undefined): number {
  const errors = r.validation?.errors.length ?? 0;
  const checkOk = r.check === undefined || r.check.verdict === 'same';
  const ok = errors === 0 && checkOk;
  if (values.open === true && r.links.importUrl && r.state === 'waiting-for-browser-step') {
    openImportUrl(r.links.importUrl, viewerUrl, ctx);
  }
  if (ctx.json) printJson(ctx, ok, { ...r, ...(r.check ? { check: checkJson(r.check) } : {}) });
  else ctx.io.out(reportLines(r, values.check === true).join('\n'));
  return ok ? EXIT.ok : EXIT.failure;
}

/** --open: only an http(s) address the service gave is handed to the opener; one elsewhere than the viewer is said. */
function openImportUrl(url: string, viewerUrl: string | undefined, ctx: CommandContext): void {
  const openable = openableUrl(url, viewerUrl);
  if (!openable.ok) {
    ctx.io.err(`publish: not opening the import address ${clean(url)}: ${openable.why}.`);
    return;
  }
  if (openable.outside) {
    ctx.io.err(`publish: note: the import address is not under the viewer address ${clean(viewerUrl ?? '')}.`);
  }
  openInBrowser(openable.url, (why) => ctx.io.err(`publish: could not open a browser (${why}): open the address`));
}

function checkJson(check: NonNullable<PublishResult['check']>) {
  return { ...check, notes: check.notes.map((n) => issueJson(n)) };
}

function reportLines(r: PublishResult, checkAsked: boolean): string[] {
  const out: string[] = [];
  if (r.convertedFrom) out.push(`The course file is IOF ${r.convertedFrom}: it was converted to IOF XML 3.0 to send.`);
  if (r.positionsConvertedFrom !== undefined) {
    out.push(`The control positions are in the grid ${r.positionsConvertedFrom}: they were sent as WGS 84 degrees.`);
  }
  const georef =
    r.map.fitRmsM === undefined ? r.map.georeference : `fitted to the controls, rms ${r.map.fitRmsM.toFixed(1)} m`;
  out.push(`Map: 1:${r.map.scale}, georeference ${georef}; ${plural(r.map.controlsChecked, 'control')} on the map.`);
  out.push(`Files: ${r.files.map((f) => `${clean(f.name)} (${f.bytes} bytes)`).join(', ')}.`);
  if (r.dryRun) {
    const what =
      r.action === 'update'
        ? `update importable event ${clean(r.importableId ?? '')}`
        : 'create a new importable event';
    out.push(`Dry run: would ${what}. Nothing was sent.`);
    if (r.written) out.push(`Wrote ${r.written.object} and ${r.written.zip}.`);
    return out;
  }
  if (r.replacedGone)
    out.push(`The importable event ${clean(r.replacedGone)} is gone from the service: a new one was made.`);
  out.push(
    `${r.action === 'create' ? 'Created' : 'Updated'} importable event ${clean(r.importableId ?? '')}: "${clean(r.name)}".`,
  );
  out.push(...validationLines(r));
  out.push(...stateLines(r));
  if (r.check) out.push(`Check against event ${r.check.eventId}: ${r.check.verdict.toUpperCase().replace('_', ' ')}.`);
  else if (checkAsked && r.state !== 'imported') {
    out.push('--check: not imported yet, nothing to compare; publish again with --check after the browser step.');
  }
  return out;
}

function validationLines(r: PublishResult): string[] {
  const v = r.validation;
  if (!v) return [];
  const out: string[] = [];
  for (const e of v.errors) out.push(`  error: ${clean(e)}`);
  for (const w of v.warnings) out.push(`  warning: ${clean(w)}`);
  if (v.raw !== undefined) out.push(`  the service said: ${clean(v.raw)}`);
  const head =
    v.errors.length > 0
      ? `The service's validation found ${plural(v.errors.length, 'error')}: fix the file and publish again.`
      : `The service's validation: no errors${v.warnings.length > 0 ? `, ${plural(v.warnings.length, 'warning')}` : ''}.`;
  return [head, ...out];
}

function stateLines(r: PublishResult): string[] {
  if (r.state === 'imported') {
    return [
      `Imported as event ${r.eventId ?? '?'}.`,
      ...(r.links.showUrl ? [`Show: ${clean(r.links.showUrl)}`] : []),
      ...(r.links.editUrl ? [`Edit: ${clean(r.links.editUrl)}`] : []),
    ];
  }
  if (r.state === 'waiting-for-browser-step' && r.links.importUrl) {
    return [`Open this address, signed in to the service, and import the event:`, `  ${clean(r.links.importUrl)}`];
  }
  return [];
}

function stateFailure(ctx: CommandContext, err: StateError): number {
  if (ctx.json) printJson(ctx, false, { error: errorJson(err) });
  else ctx.io.err(`livelox-bridge publish: ${errorText(err)} Nothing was sent.`);
  return PUBLISH_EXIT.state;
}

/** The course file is not valid against IOF.xsd: the schema's messages with their lines. Nothing was sent. */
function schemaFailure(ctx: CommandContext, file: string, err: ValidationError): number {
  if (ctx.json) {
    printJson(ctx, false, { error: errorJson(err) });
  } else {
    ctx.io.err(`livelox-bridge publish: ${clean(file)} is not valid IOF XML 3.0 CourseData; nothing was sent:`);
    ctx.io.err(schemaErrorLines(err.issues, file, false, '  ').join('\n'));
  }
  return EXIT.failure;
}
