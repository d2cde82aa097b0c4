/** "Did you mean": the closest known word within a small distance, and no guess when none is close or two tie. */
import { describe, expect, it } from 'vitest';
import { closest } from '../../src/cli/suggest.js';

const OPTIONS = ['format', 'from', 'to', 'journal', 'json', 'epsg', 'event-id', 'state', 'wait', 'tolerance-m'];

describe('closest', () => {
  it.each([
    ['fromat', 'format'],
    ['form', 'from'],
    ['jounral', 'journal'],
    ['jsno', 'json'],
    ['epgs', 'epsg'],
    ['eventid', 'event-id'],
    ['tolerence-m', 'tolerance-m'],
    ['FORMAT', 'format'],
    ['toler', 'tolerance-m'],
  ])('%s -> %s', (typed, meant) => {
    expect(closest(typed, OPTIONS)).toBe(meant);
  });

  it('guesses nothing for a word far from every known one', () => {
    expect(closest('frobnicate', OPTIONS)).toBeUndefined();
    expect(closest('xyz', OPTIONS)).toBeUndefined();
  });

  it('guesses nothing when two known words are equally close', () => {
    expect(closest('tx', ['to', 'ta'])).toBeUndefined();
  });

  it('allows one edit for short words, two for longer ones', () => {
    expect(closest('wiat', OPTIONS)).toBe('wait');
    expect(closest('wxyt', OPTIONS)).toBeUndefined();
    expect(closest('jurnl', OPTIONS)).toBe('journal');
  });
});
