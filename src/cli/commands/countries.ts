/** `livelox-bridge countries`: the countries the service knows, with the internal ids that event searches take. */
import { EXIT, type Command } from '../command.js';
import { printJson } from '../json-output.js';
import { CULTURE_OPTION, cultureOption } from '../culture-option.js';
import { plural, table, terminal } from '../format.js';
import { SERVICE_OPTIONS, openService } from '../service.js';

export const countriesCommand: Command = {
  name: 'countries',
  usage: 'countries [--culture CODE] [--only-having-events]',
  options: {
    culture: CULTURE_OPTION,
    'only-having-events': { type: 'boolean', description: 'only countries with at least one event' },
    ...SERVICE_OPTIONS,
  },
  details: [
    'The id or the code goes to `events --country`, which also takes names and ISO alpha-2 and numeric codes.',
    'Example: livelox-bridge countries --only-having-events --culture sv-SE',
  ].join('\n'),
  async run(values, _positionals, ctx) {
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
  },
};
