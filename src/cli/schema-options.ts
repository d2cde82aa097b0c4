/**
 * What `--schema FILE` and `--dtd FILE` (shared-options.ts) give the validator: the first step of the schema lookup, with
 * `IOF_XSD` / `IOF_DTD` read from the command's environment, then the package's copy, then the cache. The lookup runs
 * before anything slow (a request, a worker thread), so a missing schema ends the command at once.
 */
import { InputError, type Hint } from '../errors.js';
import { iofDtdPath, iofSchemaPath } from '../iof/schema-path.js';
import type { ValidateOptions } from '../iof/validate/types.js';
import { stringOption } from './command.js';
import type { SCHEMA_OPTIONS } from './shared-options.js';
import type { CommandContext, Values } from './spec.js';

/**
 * The validator's options for this command line: the schema and DTD found now, and the command's environment. Throws
 * `InputError` `schema_missing`, with the ways out, when a path given (`--schema`, `--dtd`, `IOF_XSD`, `IOF_DTD`) is
 * not there, and when IOF.xsd is found nowhere, unless `uncompared` is `allowed`: check-courses then goes on without
 * the schema (the validator says so, and the verdict is NOT COMPARED at best); when it is `refused`, the error also
 * names `--allow-uncompared`.
 */
export function schemaOptions(
  values: Values<typeof SCHEMA_OPTIONS>,
  ctx: Pick<CommandContext, 'env'>,
  uncompared?: 'allowed' | 'refused',
): Pick<ValidateOptions, 'schemaPath' | 'dtdPath' | 'env'> {
  const lookup = { env: ctx.env };
  const schema = stringOption(values, 'schema');
  const dtd = stringOption(values, 'dtd');
  const dtdPath = iofDtdPath({ ...lookup, ...(dtd === undefined ? {} : { path: dtd }) });
  const options = { env: ctx.env, ...(dtdPath === undefined ? { dtdPath: false as const } : { dtdPath }) };
  try {
    return { ...options, schemaPath: iofSchemaPath({ ...lookup, ...(schema === undefined ? {} : { path: schema }) }) };
  } catch (err) {
    const explicit = err instanceof InputError && err.hint?.values?.[1] !== undefined;
    if (!(err instanceof InputError) || err.hint === undefined || explicit || uncompared === undefined) throw err;
    if (uncompared === 'allowed') return options;
    throw withHintValue(err, err.hint, 'allow_uncompared');
  }
}

/** The same error, its hint carrying one more value for the CLI's wording (`allow_uncompared`, `no_option`). */
export function withHintValue(err: InputError, hint: Hint, value: string): InputError {
  return new InputError(err.source, err.reason, err.detail, {
    cause: err,
    hint: { ...hint, values: [...(hint.values ?? []), value] },
  });
}
