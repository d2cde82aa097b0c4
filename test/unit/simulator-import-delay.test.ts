/** The simulator's import delay: fixed, or drawn within a range (the contract's 5-15 s by default, or scaled down). */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { validateOptions } from '../../src/simulator/options.js';
import { Random } from '../../src/simulator/random.js';
import { importDelayDraw } from '../../src/simulator/route-import.js';

describe('simulator import delay', () => {
  it('is fixed, or drawn evenly within the range, by default 5-15 s', () => {
    expect(importDelayDraw(300, Random.derive(1, 2))()).toBe(300);
    const ranged = importDelayDraw({ minMs: 50, maxMs: 150 }, Random.derive(1, 2));
    const draws = Array.from({ length: 500 }, ranged);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(50);
    expect(Math.max(...draws)).toBeLessThan(150);
    expect(Math.max(...draws) - Math.min(...draws)).toBeGreaterThan(80);
    const contract = Array.from({ length: 500 }, importDelayDraw(undefined, Random.derive(1, 2)));
    expect(Math.min(...contract)).toBeGreaterThanOrEqual(5000);
    expect(Math.max(...contract)).toBeLessThan(15_000);
  });

  it('refuses a range that ends before it starts', () => {
    expect(() => validateOptions({ importDelayMs: { minMs: 100, maxMs: 50 } })).toThrow(ValidationError);
    expect(() => validateOptions({ importDelayMs: { minMs: -1, maxMs: 50 } })).toThrow(ValidationError);
    expect(() => validateOptions({ importDelayMs: { minMs: 50, maxMs: 50 } })).not.toThrow();
  });
});
