/** `livelox-bridge courses <eventId>`: an event's courses as IOF XML 3.0, to stdout or to a file. */
import { decodeXml } from '../../../xml/decode.js';
import { fetchCourses } from '../../../jobs/fetch-courses.js';
import { UsageError, intOption, stringOption } from '../../command.js';
import { checkGrid } from '../../grid-options.js';
import { printJson } from '../../json-output.js';
import { eventIdArgument, eventNotFound } from '../../event-id.js';
import { writeFileAtomic } from '../../output-files.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { coursesOptions } from './spec.js';

export async function run(
  values: Values<typeof coursesOptions>,
  positionals: string[],
  ctx: CommandContext,
): Promise<number> {
  const eventId = eventIdArgument(positionals);
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
}
