/** The fault script's timeline on a clock the test moves: steps by time end at their due time, the path rule. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import {
  FaultScript,
  MAX_SCRIPT_JSON_BYTES,
  MAX_STEP_HEADERS,
  faultScriptSchema,
  scriptIssues,
  type FaultScriptStep,
} from '../../src/simulator/fault-script.js';
import { FaultInjector } from '../../src/simulator/faults.js';
import { Random } from '../../src/simulator/random.js';
import { MAX_SMALL_BODY_BYTES } from '../../src/simulator/request-limits.js';

function script(steps: unknown[]): { s: FaultScript; at: (ms: number) => void } {
  let now = 0;
  const s = new FaultScript(faultScriptSchema.parse(steps), () => now);
  return { s, at: (ms) => (now = ms) };
}

const get = (pathname: string) => ({ method: 'GET', pathname });
const status = (n: number) => ({ kind: 'status', status: n });

describe('FaultScript', () => {
  it('ends steps by time at their due time, so the next one counts from then, even with no request between', () => {
    const { s, at } = script([
      { outcome: status(500), durationMs: 100 },
      { outcome: status(502), durationMs: 50 },
      { outcome: status(503), count: 1 },
    ]);
    at(99);
    expect(s.take(get('/api/countries'))?.index).toBe(0);
    at(160);
    // Step 1 ran from 100 to 150: past it although no request came in its time.
    expect(s.progress()).toMatchObject({ current: 2, stepsDone: 2 });
    expect(s.take(get('/api/countries'))?.index).toBe(2);
    expect(s.take(get('/api/countries'))).toBeUndefined();
    expect(s.progress()).toMatchObject({ current: null, finished: true });
  });

  it('ends a step with both count and durationMs at whichever comes first', () => {
    const byCount = script([
      { outcome: status(500), count: 2, durationMs: 1000 },
      { outcome: status(502), count: 1 },
    ]);
    expect([0, 0, 0].map(() => byCount.s.take(get('/api/x'))?.index)).toEqual([0, 0, 1]);
    const byTime = script([
      { outcome: status(500), count: 5, durationMs: 10 },
      { outcome: status(502), count: 1 },
    ]);
    expect(byTime.s.take(get('/api/x'))?.index).toBe(0);
    byTime.at(10);
    expect(byTime.s.progress()).toMatchObject({ current: 1, requestsLeft: 1, msLeft: null });
  });

  it('shows the time left of a step by time', () => {
    const { s, at } = script([{ outcome: status(500), durationMs: 1000 }]);
    at(250);
    expect(s.progress()).toMatchObject({ current: 0, msLeft: 750, requestsLeft: null });
  });

  it.each([
    ['/api/events/{id}', '/api/events/12', true],
    ['/api/events/{id}', '/api/events/12/', true],
    ['/api/events/{id}', '/api/events', false],
    ['/api/events/{id}', '/api/events/12/x', false],
    ['/api/events/{id}', '/api/Events/12', false],
    ['/api/events/', '/api/events', true],
    ['/auth/oauth2/token', '/auth/oauth2/token', true],
  ])('path %s matches %s: %s', (path, pathname, matches) => {
    const { s } = script([{ path, outcome: status(500), count: 1 }]);
    expect(s.take(get(pathname)) !== undefined).toBe(matches);
  });

  it('matches every /api request and nothing else when a step has no path; the method when given', () => {
    const { s } = script([{ method: 'POST', outcome: status(500) }]);
    expect(s.take(get('/api/countries'))).toBeUndefined();
    expect(s.take({ method: 'POST', pathname: '/auth/oauth2/token' })).toBeUndefined();
    expect(s.take({ method: 'POST', pathname: '/api/importableRoutes' })?.index).toBe(0);
  });
});

describe('faultScriptSchema', () => {
  const issues = (steps: unknown) => {
    const parsed = faultScriptSchema.safeParse(steps);
    return parsed.success ? {} : scriptIssues(parsed.error.issues);
  };

  it('says a step needs count or durationMs together with the other mistakes of the script', () => {
    const said = issues([
      { outcome: status(200) },
      { outcome: { kind: 'stall', ms: -5 }, count: 1 },
      { outcome: status(503), times: 2 },
      { outcome: { kind: 'reset' } },
    ]);
    expect(Object.keys(said).sort()).toEqual(['[0].count', '[0].outcome.status', '[1].outcome.ms', '[2]', '[2].count']);
  });

  it('bounds the headers of a step and the size of a script, so that every valid script fits a control body', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_STEP_HEADERS + 1 }, (_, i) => [`x-h${i}`, 'v']));
    expect(issues([{ outcome: { ...status(503), headers: many } }])).toEqual({
      '[0].outcome.headers': [`at most ${MAX_STEP_HEADERS} headers`],
    });
    const full = Object.fromEntries(Array.from({ length: MAX_STEP_HEADERS }, (_, i) => [`x-h${i}`, '"'.repeat(1000)]));
    const big = Array.from({ length: 100 }, () => ({ outcome: { ...status(503), headers: full }, count: 1 }));
    expect(issues(big).body?.[0]).toMatch(new RegExp(`more than the ${MAX_SCRIPT_JSON_BYTES} a script may take`));
    const fits = big.slice(0, 10);
    expect(issues(fits)).toEqual({});
    expect(Buffer.byteLength(JSON.stringify({ rate: 0.123456789, script: fits }))).toBeLessThan(MAX_SMALL_BODY_BYTES);
  });
});

describe('FaultInjector.setScript', () => {
  const injector = () =>
    new FaultInjector({ rate: 0, kinds: ['500'], stallMs: 1000, retryAfterS: 1 }, new Random(1), () => 0);

  it.each([
    [[{ outcome: { kind: 'status', status: 200 }, count: 0 }], /script\[0\]\.outcome\.status.*script\[0\]\.count/],
    [[{ outcome: { kind: 'stall', ms: -5 } }], /script\[0\]\.outcome\.ms/],
    [[{ outcome: { kind: 'teapot' }, count: 1 }], /script\[0\]\.outcome\.kind: kind must be one of/],
    [[{ outcome: { kind: 'reset' } }, { outcome: { kind: 'pass' } }], /script\[0\]\.count: count or durationMs/],
  ])('refuses %j with a ValidationError naming the step and field, keeping the script in place', (steps, said) => {
    const f = injector();
    f.setScript([{ outcome: { kind: 'reset' }, count: 1 }]);
    let thrown: unknown;
    try {
      f.setScript(steps as FaultScriptStep[]);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).message).toMatch(said);
    expect((thrown as ValidationError).issues[0]?.path).toMatch(/^script\[\d\]/);
    expect(f.scriptProgress()?.steps).toHaveLength(1);
    expect(f.decide({ method: 'GET', pathname: '/api/countries' })?.outcome.kind).toBe('reset');
  });

  it('sets a valid script, and removes it with no steps', () => {
    const f = injector();
    f.setScript([{ path: '/api/countries', outcome: { kind: 'status', status: 503 }, count: 1 }]);
    expect(f.decide({ method: 'GET', pathname: '/api/countries' })?.outcome).toMatchObject({ status: 503 });
    f.setScript([]);
    expect(f.scriptProgress()).toBeNull();
  });
});
