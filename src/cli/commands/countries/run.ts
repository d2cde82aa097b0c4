/** `livelox-bridge countries`: the countries the service knows, with the internal ids that event searches take. */
import { printJson } from '../../json-output.js';
import { cultureOption } from '../../culture-option.js';
import { plural, table, terminal } from '../../format.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { countriesOptions } from './spec.js';

export async function run(
  values: Values<typeof countriesOptions>,
  _positionals: string[],
  ctx: CommandContext,
): Promise<number> {
  const cultureCode = cultureOption(values);
  const session = await openService(values, ctx, { auth: 'any' });
  try {
    const list = await session.client.countries.list({
      ...(cultureCode === undefined ? {} : { cultureCode }),
      ...(values['only-having-events'] === true ? { onlyHavingEvents: true } : {}),
      signal: ctx.signal,
    });
    if (ctx.json) {
      printJson(ctx, true, { countries: list });
      return EXIT.ok;
    }
    if (list.length === 0) {
      ctx.io.out('No countries.');
      return EXIT.ok;
    }
    ctx.io.out(
      table(
        list,
        [
          { header: 'id', cell: (c) => String(c.id), align: 'right' },
          { header: 'code', cell: (c) => c.code },
          { header: 'name', cell: (c) => c.name, shrink: true },
        ],
        terminal(ctx.env),
      ),
    );
    ctx.io.out(plural(list.length, 'country', 'countries'));
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
