/** The source for an event system's export file, by what the file holds rather than by its name. */
import { open } from 'node:fs/promises';
import { unreadableFile } from '../core/files.js';
import { InputError } from '../errors.js';
import type { EmsSource } from './source.js';
import { iofEmsSource, type IofSourceOptions } from './iof-source.js';
import { jsonEmsSource } from './json-source.js';

/** Whether a file's first bytes make it a JSON file (docs/ems-json.md): `{` first, after a byte order mark and blanks. */
export function looksLikeJson(head: Uint8Array): boolean {
  return Buffer.from(head.buffer, head.byteOffset, head.byteLength)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{');
}

/**
 * A JSON file (docs/ems-json.md) when its first character is `{`, an IOF XML export otherwise (the IOF reader then
 * says clearly what else it may be). Exports are often saved as `.txt` or without extension, hence content, not name.
 */
export async function openEmsFile(path: string, options: IofSourceOptions = {}): Promise<EmsSource> {
  let head: Buffer;
  try {
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw unreadableFile(path, err, {
      hint: 'Give the path of an IOF XML export (class, entry, start or result list, course data) or an EMS JSON file.',
    });
  }
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
