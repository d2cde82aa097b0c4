/**
 * `--lang` and `--no-links-text`, the options of the HTML fragments `link --format html` and `sync --out-dir` write
 * (one renderer): read and checked before any request, a bad one a usage error naming its option.
 */
import { ValidationError } from '../errors.js';
import { checkFragmentOptions, type FragmentOptions } from '../links/fragment.js';
import { optionError, stringOption } from './command.js';

export function fragmentTextOptions(values: {
  lang?: string | boolean | undefined;
  'no-links-text'?: string | boolean | undefined;
}): Pick<FragmentOptions, 'lang' | 'texts'> {
  const lang = stringOption(values, 'lang');
  const noLinks = stringOption(values, 'no-links-text');
  const options = { ...(lang === undefined ? {} : { lang }), ...(noLinks === undefined ? {} : { texts: { noLinks } }) };
  try {
    checkFragmentOptions(options);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    throw optionError(err.issues[0]?.path === 'lang' ? 'lang' : 'no-links-text', err);
  }
  return options;
}
