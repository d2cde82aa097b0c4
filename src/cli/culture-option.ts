/**
 * `--culture`: the language of names the service translates. Several commands (countries, event, events) take it, so
 * its check lives once, here (the option itself, as data, is CULTURE_OPTION in shared-options.ts).
 */
import { cultureCodeParam } from '../resources/params.js';
import { UsageError, stringOption } from './command.js';

/** The `--culture` value, checked before anything is sent: a language code such as en-US or sv-SE. */
export function cultureOption(values: { culture?: string }): string | undefined {
  const culture = stringOption(values, 'culture');
  if (culture !== undefined && !cultureCodeParam.safeParse(culture).success) {
    throw new UsageError(`--culture takes a language code such as en-US or sv-SE, got '${culture}'`);
  }
  return culture;
}
