/** The fault script's timeline on a clock the test moves: steps by time end at their due time, the path rule. */
import { describe, expect, it } from 'vitest';
import { FaultScript, faultScriptSchema } from '../../src/simulator/fault-script.js';

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
