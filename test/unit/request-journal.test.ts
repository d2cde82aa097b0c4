/**
 * The journal's ring on its own: bounded by count and by memory, the oldest dropped first, order kept through every
 * wrap and growth, and `clear` counted as dropped.
 */
import { describe, expect, it } from 'vitest';
import { RequestJournal, type JournalRecord } from '../../src/simulator/journal.js';
import type { SimState } from '../../src/simulator/state.js';

const state = { apiKeys: new Map(), tokens: new Map(), codes: new Map() } as unknown as SimState;

function request(i: number, bodyChars = 10): JournalRecord {
  return {
    startedMs: Date.UTC(2026, 0, 1) + i,
    simulatedMs: Date.UTC(2026, 0, 1) + i,
    durationMs: 1,
    method: 'GET',
    path: `/api/events/${i}`,
    query: new URLSearchParams(),
    headers: {},
    requestBody: undefined,
    requestBytes: 0,
    status: 200,
    responseHeaders: { 'content-type': 'text/plain' },
    responseBody: 'x'.repeat(bodyChars),
  };
}

const seqs = (j: RequestJournal) => j.entries().map((e) => e.seq);

describe('the request journal ring', () => {
  it('keeps the newest entries up to its count, oldest first, and counts the rest as dropped', () => {
    const j = new RequestJournal(state, { entries: 5 });
    for (let i = 1; i <= 23; i++) j.record(request(i));
    expect(seqs(j)).toEqual([19, 20, 21, 22, 23]);
    expect(j.dropped).toBe(18);
  });

  it('drops the oldest past its memory budget whatever the count allows, and grows again in order', () => {
    // Entries of ~4 KiB of body each (about 9 KB counted): an 80 KB budget holds eight; small ones (about 1.2 KB), 60.
    const j = new RequestJournal(state, { entries: 100, maxBytes: 80_000 });
    for (let i = 1; i <= 10; i++) j.record(request(i, 4000));
    const kept = seqs(j);
    expect(kept.length).toBeGreaterThanOrEqual(7);
    expect(kept.length).toBeLessThanOrEqual(9);
    expect(kept.at(-1)).toBe(10);
    expect(kept).toEqual(kept.map((_, i) => kept[0]! + i));
    // Small entries after large ones: the ring grows past its wrapped length and keeps arrival order.
    for (let i = 11; i <= 60; i++) j.record(request(i, 10));
    const after = seqs(j);
    expect(after.at(-1)).toBe(60);
    expect(after).toEqual(after.map((_, i) => after[0]! + i));
    expect(after.length).toBeGreaterThanOrEqual(50);
    expect(j.dropped + after.length).toBe(60);
  });

  it('clears to nothing, counting what it held as dropped, and goes on from the next seq', () => {
    const j = new RequestJournal(state, { entries: 3 });
    for (let i = 1; i <= 4; i++) j.record(request(i));
    j.clear();
    expect(j.entries()).toEqual([]);
    expect(j.dropped).toBe(4);
    j.record(request(5));
    expect(seqs(j)).toEqual([5]);
  });

  it('keeps order over many random sizes against a plain list', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const j = new RequestJournal(state, { entries: 50, maxBytes: 200_000 });
    for (let i = 1; i <= 2000; i++) {
      j.record(request(i, Math.floor(next() * 4096)));
      const kept = seqs(j);
      expect(kept.at(-1)).toBe(i);
      expect(kept).toEqual(kept.map((_, k) => kept[0]! + k));
      expect(kept.length).toBeLessThanOrEqual(50);
    }
  });
});
