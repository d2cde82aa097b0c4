/** The source for an event system's export file, by what the file holds rather than by its name. */
import { readFileHead } from '../core/files.js';
import { startsLikeJson } from '../core/json-input.js';
import { InputError } from '../errors.js';
import type { EmsSource } from './source.js';
import { iofEmsSource, type IofSourceOptions } from './iof-source.js';
import { jsonEmsSource } from './json-source.js';

/**
 * Whether a file's first bytes make it a JSON file (docs/ems-json.md): `{` first, after a byte order mark and blanks,
 * in UTF-8 or UTF-16 (which the JSON reader decodes: a UTF-16 file is JSON, never "not an IOF XML file").
 */
export function looksLikeJson(head: Uint8Array): boolean {
  return startsLikeJson(head, '{');
}

/**
 * A JSON file (docs/ems-json.md) when its first character is `{`, an IOF XML export otherwise (the IOF reader then
 * says clearly what else it may be). Exports are often saved as `.txt` or without extension, hence content, not name.
 */
export async function openEmsFile(path: string, options: IofSourceOptions = {}): Promise<EmsSource> {
  const head = await readFileHead(path, 64, {
    hint: 'Give the path of an IOF XML export (class, entry, start or result list, course data) or an EMS JSON file.',
  });
  if (looksLikeJson(head)) {
    if (options.race !== undefined) {
      throw new InputError(
        path,
        'race_not_applicable',
        'a race number applies to IOF XML exports, not to the JSON format.',
      );
    }
    return jsonEmsSource(path);
  }
  return iofEmsSource(path, options);
}
