/**
 * Generated modification times: the dataset is a snapshot taken on its "today", so nothing in it was modified later
 * (a simulator's clock starts after that day and must never show a modification in its future), in whole seconds.
 */
import { describe, expect, it } from 'vitest';
import { DATASET_REFERENCE_MS } from '../../src/simulator/dataset/calendar.js';
import { generateDataset } from '../../src/simulator/dataset/generate.js';

describe('generated modification times', () => {
  it.each([
    [1, 300],
    [2, 300],
    [7, 2000],
  ])("for seed %i and %i events lie on or before the dataset's today, in whole seconds", (seed, events) => {
    const data = generateDataset({ seed, events });
    for (const e of data.events) {
      expect(e.modifiedMs).toBeLessThanOrEqual(DATASET_REFERENCE_MS);
      expect(e.modifiedMs % 1000).toBe(0);
      // Past events were last touched after they ended; events to come while they were being prepared.
      if (e.endMs < DATASET_REFERENCE_MS - 1000) expect(e.modifiedMs).toBeGreaterThan(e.endMs);
    }
    // Corrections long after the event still happen, and events to come are touched over months, not on one day.
    expect(data.events.some((e) => e.modifiedMs - e.endMs > 200 * 86_400_000)).toBe(true);
    const upcoming = data.events.filter((e) => e.startMs >= DATASET_REFERENCE_MS).map((e) => e.modifiedMs);
    expect(new Set(upcoming.map((ms) => Math.floor(ms / 86_400_000))).size).toBeGreaterThan(upcoming.length / 4);
  });

  it('stay the same for a seed', () => {
    const stamps = (seed: number) => generateDataset({ seed, events: 500 }).events.map((e) => e.modifiedMs);
    expect(stamps(11)).toEqual(stamps(11));
  });
});
