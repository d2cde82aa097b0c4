/**
 * The service event id on the command line (a positional of `event` and `courses`, `--event-id` of check-courses), and
 * a 404 about it said in the CLI's words. One rule for what an event id looks like, whichever way it is given.
 */
import { NotFoundError } from '../errors.js';
import { UsageError, stringOption } from './command.js';

/** A positive whole number of at most 15 digits; `what` names where it came from in the usage error. */
function eventIdValue(raw: string, what: string): number {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) {
    throw new UsageError(`${what} is a positive whole number, got '${raw}'`);
  }
  return Number(raw);
}

/**
 * The one positional argument of `event` and `courses`: a positive integer event id. Messages leave the command's name
 * to the line's prefix (`livelox-bridge event: needs an event id ...`).
 */
export function eventIdArgument(positionals: readonly string[]): number {
  if (positionals.length === 0) throw new UsageError('needs an event id (see livelox-bridge events)');
  if (positionals.length > 1) throw new UsageError(`takes one event id, got ${positionals.length} arguments`);
  return eventIdValue(positionals[0]!, 'the event id');
}

/** A required `--event-id N`. */
export function requiredEventIdOption(values: { 'event-id'?: string }): number {
  const raw = stringOption(values, 'event-id');
  if (raw === undefined) throw new UsageError('needs --event-id N (find it with livelox-bridge events)');
  return eventIdValue(raw, '--event-id');
}

/** A 404 about an event, said in the command's words (the service's own text is kept in `body`). */
export function eventNotFound(err: unknown, eventId: number): unknown {
  if (!(err instanceof NotFoundError)) return err;
  return new NotFoundError('not_found', err.status, `no event has the id ${eventId}.`, err.body, {
    cause: err,
    hint: 'Find event ids with `livelox-bridge events`.',
  });
}
