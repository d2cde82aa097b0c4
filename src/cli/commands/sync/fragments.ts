/**
 * `sync --out-dir DIR` (with `--css`, `--lang`, `--no-links-text`): the options read and checked before the run, the
 * folder written after the commit (jobs/portal-fragments.ts), and what the summary says of it. Kept apart from run.ts,
 * which only calls these.
 */
import { mkdir } from 'node:fs/promises';
import {
  FRAGMENT_INDEX_FILE,
  FRAGMENT_MANIFEST_FILE,
  writePortalFragments,
  type PortalFragmentsResult,
  type WritePortalFragmentsOptions,
} from '../../../jobs/portal-fragments.js';
import type { PortalLinks } from '../../../links/portal.js';
import { UsageError } from '../../command.js';
import { fragmentTextOptions } from '../../fragment-text-options.js';
import { clean, plural } from '../../format.js';
import type { Values } from '../../spec.js';
import type { syncOptions } from './spec.js';

/** The fragments' options, checked now: a wrong `--lang` is a usage error before any request, not after the commit. */
export function fragmentOptions(
  values: Values<typeof syncOptions>,
  outDir: string | undefined,
): WritePortalFragmentsOptions {
  const css = values.css === true;
  if (outDir === undefined) {
    const given = [
      css && '--css',
      values.lang !== undefined && '--lang',
      values['no-links-text'] !== undefined && '--no-links-text',
    ];
    const first = given.find((g): g is string => typeof g === 'string');
    if (first !== undefined) throw new UsageError(`${first} is about the fragments: give --out-dir DIR too`);
  }
  return { css, ...fragmentTextOptions(values) };
}

/**
 * Writes the folder (made when missing); a failure names it, as every other output file's does. Stamps follow the
 * service's clock, as everything sync keeps does (this machine's only when the service never answered).
 */
export async function writeFragments(
  dir: string,
  result: { links: readonly PortalLinks[]; serviceTime?: string | undefined },
  options: WritePortalFragmentsOptions,
): Promise<PortalFragmentsResult> {
  const serviceTime = result.serviceTime;
  const now = () => (serviceTime === undefined ? new Date() : new Date(serviceTime));
  try {
    await mkdir(dir, { recursive: true });
    return await writePortalFragments(dir, result.links, { now, ...options });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot write the fragments in ${dir}: ${why}`, { cause: err });
  }
}

/** The summary's lines about the folder: what was written and removed, what was left and why, and the conflicts. */
export function fragmentLines(dir: string, r: PortalFragmentsResult): string[] {
  const lines = [
    clean(
      `Fragments in ${dir}: ${r.written.length} written, ${r.unchanged} unchanged, ${r.removed.length} removed; ${FRAGMENT_INDEX_FILE} lists ${plural(r.index.length, 'portal event')}.`,
    ),
  ];
  if (r.conflicts.length > 0) {
    const shown = r.conflicts.slice(0, 3).map((c) => `${c.file} (${c.key})`);
    lines.push(
      clean(
        `! ${plural(r.conflicts.length, 'fragment')} not written: a file this tool did not write is at its name (${shown.join(', ')}${r.conflicts.length > 3 ? ', ...' : ''}); move it away and run again.`,
      ),
    );
  }
  if (r.manifest !== 'ok' && r.left.length > 0) {
    lines.push(
      clean(
        `  ${FRAGMENT_MANIFEST_FILE} was ${r.manifest}: no fragment was removed, and ${plural(r.left.length, '.html file')} not of this run's events stayed (${r.left.slice(0, 3).join(', ')}${r.left.length > 3 ? ', ...' : ''}); delete those that are old fragments by hand.`,
      ),
    );
  } else if (r.manifest === 'damaged') {
    lines.push(clean(`  ${FRAGMENT_MANIFEST_FILE} was damaged: nothing was removed; it is written anew.`));
  }
  return lines;
}
