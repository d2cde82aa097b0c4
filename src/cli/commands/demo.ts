/**
 * `livelox-bridge demo`: starts the embedded simulator, asks it over HTTP what it serves, prints that and stops.
 * The newcomer's first command: it shows the whole stack answering before any account exists. `demo sync`,
 * `demo check-courses` and `demo import` run one job end to end instead (src/cli/demos/).
 */
import { request } from 'undici';
import { joinUrl } from '../../config.js';
import { startSimulator } from '../../simulator/server.js';
import { EXIT, UsageError, intOption, numberOption, type Command } from '../command.js';
import { printJson } from '../json-output.js';

interface EventRow {
  id: number;
  name: string;
  timeInterval: { start: string };
  country: { code: string } | null;
  classes?: Array<{ id: number; name: string; url?: string }>;
}

export const demoCommand: Command = {
  name: 'demo',
  usage: 'demo [--seed N] [--events N] | demo sync|check-courses|import [--keep]',
  allowPositionals: true,
  options: {
    seed: { type: 'string', valueName: 'N', description: 'dataset seed (default 1)' },
    events: { type: 'string', valueName: 'N', description: 'number of generated events (default 300)' },
    keep: {
      type: 'boolean',
      description:
        'with a job: leave the simulator serving after the job, until Ctrl-C (exit 0 then), to follow its links',
    },
    churn: {
      type: 'string',
      valueName: 'R',
      description: 'demo sync: share of events that change per simulated day between nights, 0..1 (default 0.05)',
    },
  },
  details: [
    'Each job end to end on an embedded simulator, with files shipped in fixtures/demo:',
    '  demo sync            a portal folder synced over three simulated nights, the world changing in between',
    '  demo check-courses   an organiser course file with known differences against the service event',
    '  demo import          a folder of GPX, TCX and FIT routes imported, each matched to its class',
    "Each prints the job's own report and exits with the job's code (sync and check-courses 1 here: the portal holds a",
    'training the service lacks, the course file differs); the simulator stops with the command unless --keep.',
  ].join('\n'),
  async run(values, positionals, ctx) {
    const [job, ...more] = positionals;
    if (job !== undefined) {
      if (more.length > 0) throw new UsageError(`one job at a time, got ${positionals.length}`);
      if (values.seed !== undefined || values.events !== undefined) {
        throw new UsageError(
          `--seed and --events shape the bare demo; demo ${job} runs on the default world its files match`,
        );
      }
      const { runJobDemo } = await import('../demos/index.js');
      return runJobDemo({ job, keep: values.keep === true, churn: numberOption(values, 'churn', 0, 1) }, ctx);
    }
    if (values.keep !== undefined || values.churn !== undefined) {
      throw new UsageError('--keep and --churn go with a job: demo sync, demo check-courses or demo import');
    }
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
  },
};
