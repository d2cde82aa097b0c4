/** `livelox-bridge courses <eventId>`: an event's courses as IOF XML 3.0, to stdout or to a file. */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { decodeXml } from '../../iof/read.js';
import { EXIT, intOption, stringOption, type Command } from '../command.js';
import { SERVICE_OPTIONS, openService } from '../service.js';
import { eventIdArgument, eventNotFound } from './event.js';

/**
 * Writes `bytes` to `file` so that readers see the old file or the whole new one, never half of it: a temporary file
 * in the same directory (a rename across file systems is not atomic), flushed to disk, then renamed over the target.
 */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  const target = resolve(file);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let handle;
  try {
    handle = await open(temp, 'wx');
    await handle.writeFile(bytes);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, target);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`cannot write ${file}: ${code ?? (err instanceof Error ? err.message : String(err))}`, {
      cause: err,
    });
  }
}

export const coursesCommand: Command = {
  name: 'courses',
  summary: "Fetch an event's courses as IOF XML 3.0 (to stdout, or atomically to a file with --out).",
  usage: 'courses <eventId> [--epsg N] [--no-controls] [--no-class-connections] [--no-classes] [--out FILE]',
  allowPositionals: true,
  options: {
    epsg: {
      type: 'string',
      valueName: 'N',
      description: 'EPSG code of the projection for control coordinates (default WGS84)',
    },
    'no-controls': { type: 'boolean', description: 'leave out the controls' },
    'no-class-connections': { type: 'boolean', description: 'leave out the class connections of the courses' },
    'no-classes': { type: 'boolean', description: 'leave out the class sub-objects' },
    out: { type: 'string', valueName: 'FILE', description: 'write the XML to FILE (replaced atomically)' },
    ...SERVICE_OPTIONS,
  },
  details: [
    'The bytes are written as the service sent them. Courses that are not public yet are left out by the service.',
    'With --json and --out: {"ok":true,"file":...,"bytes":N}; with --json alone: {"ok":true,"eventId":N,"bytes":N,"xml":...}.',
    'A key without course access is refused (exit 1) with what to ask the service operator for.',
    'Example: livelox-bridge courses 12345 --epsg 3006 --out courses.xml',
  ].join('\n'),
  async run(values, positionals, ctx) {
    const eventId = eventIdArgument(positionals, 'courses');
    const epsg = intOption(values, 'epsg', 1, 999_999);
    const out = stringOption(values, 'out');
    const session = await openService(values, ctx, { auth: 'any' });
    try {
      let bytes: Buffer;
      try {
        bytes = await session.client.courses.getIofXmlBytes({
          eventId,
          ...(epsg === undefined ? {} : { projectionEpsgCode: epsg }),
          ...(values['no-controls'] === true ? { includeControls: false } : {}),
          ...(values['no-class-connections'] === true ? { includeClassConnections: false } : {}),
          ...(values['no-classes'] === true ? { includeClasses: false } : {}),
          signal: ctx.signal,
        });
      } catch (err) {
        throw eventNotFound(err, eventId);
      }
      if (out !== undefined) {
        await writeFileAtomic(out, bytes);
        if (ctx.json) ctx.io.out(JSON.stringify({ ok: true, file: out, bytes: bytes.length }));
        else ctx.io.out(`Wrote ${bytes.length} bytes of IOF XML to ${out}.`);
        return EXIT.ok;
      }
      const decoded = decodeXml(bytes, 'service courses');
      // stdout is UTF-8: a declaration naming another encoding would be a lie once the text is re-encoded.
      const text = (
        decoded.encoding === 'utf-8'
          ? decoded.text
          : decoded.text.replace(/^(<\?xml[^>]*?encoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2')
      ).replace(/\r?\n$/, '');
      if (ctx.json) ctx.io.out(JSON.stringify({ ok: true, eventId, bytes: bytes.length, xml: decoded.text }));
      else ctx.io.out(text);
      return EXIT.ok;
    } finally {
      await session.close();
    }
  },
};
