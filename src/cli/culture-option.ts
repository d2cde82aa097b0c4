/**
 * `--culture`: the language of names the service translates. Several commands (countries, event, events) take it, so
 * the option and its check live once, here.
 */
import { cultureCodeParam } from '../resources/params.js';
import { UsageError, stringOption, type OptionSpec, type OptionValues } from './command.js';

export const CULTURE_OPTION: OptionSpec = {
  type: 'string',
  valueName: 'CODE',
  description: 'language of country names and other culture-specific values, such as sv-SE (service default en-US)',
};

/** The `--culture` value, checked before anything is sent: a language code such as en-US or sv-SE. */
export function cultureOption(values: OptionValues): string | undefined {
  const culture = stringOption(values, 'culture');
  if (culture !== undefined && !cultureCodeParam.safeParse(culture).success) {
    throw new UsageError(`--culture takes a language code such as en-US or sv-SE, got '${culture}'`);
  }
  return culture;
}
