import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/cli/durations.js';

describe('durations as typed on the command line', () => {
  it.each([
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['1d12h', 129_600_000],
    ['2w', 1_209_600_000],
    ['90min', 5_400_000],
    ['500ms', 500],
    ['1.5h', 5_400_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('reads a bare number in the unit the option says, and only when it says one', () => {
    expect(parseDuration('3600', 's')).toBe(3_600_000);
    expect(parseDuration('250', 'ms')).toBe(250);
    expect(parseDuration('3600')).toBeUndefined();
  });

  it.each(['', 'h', '1 h', '-1h', '1y', '1h-', 'soon'])('refuses %j', (text) => {
    expect(parseDuration(text, 's')).toBeUndefined();
  });
});
