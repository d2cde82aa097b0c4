/**
 * `livelox-bridge demo`: starts the embedded simulator, asks it over HTTP what it serves, prints that and stops.
 * The newcomer's first command: it shows the whole stack answering before any account exists. `demo sync`,
 * `demo check-courses` and `demo import` run one job end to end instead (jobs.ts, src/cli/demos/).
 */
import { request } from 'undici';
import { joinUrl } from '../../../config.js';
import { startSimulator } from '../../../simulator/server.js';
import { intOption } from '../../command.js';
import { printJson } from '../../json-output.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { demoOptions } from './spec.js';

interface EventRow {
  id: number;
  name: string;
  timeInterval: { start: string };
  country: { code: string } | null;
  classes?: Array<{ id: number; name: string; url?: string }>;
}

export async function run(
  values: Values<typeof demoOptions>,
  _positionals: string[],
  ctx: CommandContext,
): Promise<number> {
  const sim = await startSimulator({
    port: 0,
    seed: intOption(values, 'seed', 0, 2 ** 31 - 1) ?? 1,
    events: intOption(values, 'events', 1, 1_000_000) ?? 300,
  });
  try {
    const get = async <T>(path: string): Promise<T> => {
      const res = await request(joinUrl(sim.info.baseUrl, path), {
        headers: { ApiKey: sim.info.apiKey },
        signal: ctx.signal,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
      return JSON.parse(text) as T;
    };
    const countries = await get<Array<{ code: string; name: string }>>('/countries?onlyHavingEvents=true');
    const events = await get<EventRow[]>(
      '/events?from=2026-05-01T00:00:00Z&to=2026-10-01T00:00:00Z&onlyHavingValidMapAndCourses=true&paging=0:5',
    );
    const first = events[0];
    const xml = first
      ? await request(joinUrl(sim.info.baseUrl, `/orienteering/courses/iofxml?eventId=${first.id}`), {
          headers: { ApiKey: sim.info.apiKey },
          signal: ctx.signal,
        }).then((r) => r.body.text())
      : '';
    const courseCount = (xml.match(/<Course>/g) ?? []).length;
    if (ctx.json) {
      printJson(ctx, true, { simulator: sim.describe(), countries, events, courseCount });
      return EXIT.ok;
    }
    const lines = [
      `Simulator started at ${sim.info.baseUrl} with ${sim.state.dataset.events.length} events.`,
      `Countries with events: ${countries.map((c) => `${c.name} (${c.code})`).join(', ')}`,
      '',
      'Events from May to September 2026 with map and courses (first page of 5):',
      ...events.map((e) => `  ${e.id}  ${e.timeInterval.start.slice(0, 10)}  ${e.country?.code ?? '---'}  ${e.name}`),
    ];
    if (first) {
      lines.push('', `Classes of "${first.name}" with their viewer links (${courseCount} courses in its IOF XML):`);
      for (const c of first.classes ?? []) lines.push(`  ${c.name.padEnd(14)} ${c.url ?? ''}`);
    }
    lines.push(
      '',
      'Run `livelox-bridge simulator` to keep a simulator running, `livelox-bridge --help` for more.',
      'Try each job on it: `livelox-bridge demo sync`, `demo check-courses`, `demo import`.',
    );
    ctx.io.out(lines.join('\n'));
    return EXIT.ok;
  } finally {
    await sim.close();
  }
}
