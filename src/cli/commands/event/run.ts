/** `livelox-bridge event <id>`: one event's details and its classes with their viewer links. */
import type { LiveloxEvent } from '../../../resources/events.js';
import { printJson } from '../../json-output.js';
import { cultureOption } from '../../culture-option.js';
import { eventIdArgument, eventNotFound } from '../../event-id.js';
import { clean, keyValues, paint, table, terminal } from '../../format.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { eventOptions } from './spec.js';

/** `2025-05-01T08:00:00Z` as `2025-05-01 08:00`; anything else as given. */
function minute(iso: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso;
}

function describe(e: LiveloxEvent): string {
  const state = [
    e.isSearchable === undefined ? undefined : e.isSearchable ? 'searchable' : 'not searchable',
    e.isPublished === undefined ? undefined : e.isPublished ? 'published' : 'not published',
    e.hasValidMapAndCourses === undefined
      ? undefined
      : e.hasValidMapAndCourses
        ? 'valid map and courses'
        : 'no valid map and courses',
  ].filter((s) => s !== undefined);
  return state.join(', ');
}

export async function run(
  values: Values<typeof eventOptions>,
  positionals: string[],
  ctx: CommandContext,
): Promise<number> {
  const eventId = eventIdArgument(positionals);
  const cultureCode = cultureOption(values);
  const session = await openService(values, ctx, { auth: 'any' });
  try {
    let event: LiveloxEvent;
    try {
      event = await session.client.events.get(eventId, {
        ...(cultureCode === undefined ? {} : { cultureCode }),
        ...(values['no-classes'] === true ? { includeClasses: false } : {}),
        ...(values['no-properties'] === true ? { includeProperties: false } : {}),
        signal: ctx.signal,
      });
    } catch (err) {
      throw eventNotFound(err, eventId);
    }
    if (ctx.json) {
      printJson(ctx, true, { ...event });
      return EXIT.ok;
    }
    const term = terminal(ctx.env);
    const lines = [
      `${paint(`Event ${event.id}`, 'bold', term.color)}  ${clean(event.name)}`,
      keyValues(
        [
          ['Time', `${minute(event.timeInterval.start)} – ${minute(event.timeInterval.end)} UTC`],
          ['Country', event.country ? `${event.country.name} (${event.country.code})` : undefined],
          ['Organisers', (event.organisers ?? []).map((o) => o.name).join(', ')],
          ['Participants', event.participantCount === undefined ? undefined : String(event.participantCount)],
          [
            'Position',
            event.position
              ? `${event.position.latitude.toFixed(5)}, ${event.position.longitude.toFixed(5)}`
              : undefined,
          ],
          ['State', describe(event)],
          ['Modified', event.modifiedTime === undefined ? undefined : `${minute(event.modifiedTime)} UTC`],
        ],
        term,
      ),
    ];
    if (event.properties && event.properties.length > 0) {
      lines.push(
        '',
        paint('Properties', 'bold', term.color),
        keyValues(
          event.properties.map((p) => [p.key, p.value] as const),
          term,
        ),
      );
    }
    if (event.classes) {
      lines.push('', paint(`Classes (${event.classes.length})`, 'bold', term.color));
      if (event.classes.length > 0) {
        lines.push(
          table(
            event.classes,
            [
              { header: 'id', cell: (c) => String(c.id), align: 'right' },
              { header: 'name', cell: (c) => c.name, maxWidth: 40, shrink: true },
              { header: 'viewer url', cell: (c) => c.url ?? '-' },
            ],
            term,
          ),
        );
      }
    }
    ctx.io.out(lines.join('\n'));
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
