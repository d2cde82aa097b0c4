/** `livelox-bridge courses <eventId>`: an event's courses as IOF XML 3.0, to stdout or to a file. */
import { decodeXml } from '../../xml/decode.js';
import { fetchCourses } from '../../jobs/fetch-courses.js';
import { EXIT, UsageError, intOption, stringOption, type Command } from '../command.js';
import { checkGrid } from '../grid-options.js';
import { printJson } from '../json-output.js';
import { eventIdArgument, eventNotFound } from '../event-id.js';
import { writeFileAtomic } from '../output-files.js';
import { SERVICE_OPTIONS, openService } from '../service.js';

export const coursesCommand: Command = {
  name: 'courses',
  usage:
    'courses <eventId> [--epsg N | --proj4 DEFINITION] [--no-controls] [--no-class-connections] [--no-classes] [--out FILE]',
  allowPositionals: true,
  options: {
    epsg: {
      type: 'string',
      valueName: 'N',
      description: 'EPSG code of the projection for control coordinates, projected by the service (default WGS84)',
    },
    proj4: {
      type: 'string',
      valueName: 'DEF',
      description: 'a proj4 definition for control coordinates, projected here from the WGS84 the service sends',
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
    'Example: livelox-bridge courses 12345 --proj4 "+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +units=m"',
  ].join('\n'),
  async run(values, positionals, ctx) {
    const eventId = eventIdArgument(positionals, 'courses');
    const epsg = intOption(values, 'epsg', 1, 999_999);
    const proj4 = stringOption(values, 'proj4');
    if (epsg !== undefined && proj4 !== undefined) throw new UsageError('--epsg and --proj4 exclude each other');
    // Checked before any request: a definition proj4 cannot use is a mistake on the command line.
    if (proj4 !== undefined) checkGrid('proj4', proj4);
    const out = stringOption(values, 'out');
    const session = await openService(values, ctx, { auth: 'any' });
    try {
      let bytes: Buffer;
      try {
        const params = {
          eventId,
          ...(values['no-controls'] === true ? { includeControls: false } : {}),
          ...(values['no-class-connections'] === true ? { includeClassConnections: false } : {}),
          ...(values['no-classes'] === true ? { includeClasses: false } : {}),
          signal: ctx.signal,
        };
        // An EPSG code goes to the service as it is (it may know grids our table does not); a proj4 definition is
        // applied here, since the service takes codes only.
        bytes =
          proj4 === undefined
            ? await session.client.courses.getIofXmlBytes({
                ...params,
                ...(epsg === undefined ? {} : { projectionEpsgCode: epsg }),
              })
            : (await fetchCourses(session.client, { ...params, projection: proj4 })).bytes;
      } catch (err) {
        throw eventNotFound(err, eventId);
      }
      if (out !== undefined) {
        await writeFileAtomic(out, bytes);
        if (ctx.json) printJson(ctx, true, { file: out, bytes: bytes.length });
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
      if (ctx.json) printJson(ctx, true, { eventId, bytes: bytes.length, xml: decoded.text });
      else ctx.io.out(text);
      return EXIT.ok;
    } finally {
      await session.close();
    }
  },
};
