/** `livelox-bridge courses <eventId>`: an event's courses as IOF XML 3.0, to stdout or to a file. */
import { decodeXml } from '../../xml/decode.js';
import { EXIT, intOption, stringOption, type Command } from '../command.js';
import { eventIdArgument, eventNotFound } from '../event-id.js';
import { writeFileAtomic } from '../output-files.js';
import { SERVICE_OPTIONS, openService } from '../service.js';

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
