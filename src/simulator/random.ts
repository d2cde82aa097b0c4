/**
 * A small seeded pseudo-random generator for the simulator's data. The generated dataset must be the same for a seed
 * on every machine and Node version, so everything here is integer arithmetic (`Math.imul`, shifts): no `Math.random`,
 * and no transcendental functions whose last bits an engine may change.
 */

/** Mixes numbers into one 32-bit seed (splitmix32 finaliser per part), so `derive(seed, eventId)` streams differ. */
export function hash32(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    // Split a possibly larger-than-32-bit integer into two words so that 2^32 + 1 and 1 do not collide.
    const low = part >>> 0;
    const high = Math.floor(part / 0x1_0000_0000) >>> 0;
    h = mix32(h ^ low);
    h = mix32(h ^ high ^ 0x85ebca6b);
  }
  return h >>> 0;
}

function mix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128 bits of state, passes PractRand far beyond what a
 * dataset of 10,000 events draws, and a counter guarantees no short cycles whatever the seed.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = hash32(seed, 1);
    this.b = hash32(seed, 2);
    this.c = hash32(seed, 3);
    this.d = 1;
    // The first outputs of a freshly seeded sfc32 are still correlated with the seed: discard them.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** An independent stream for one purpose (`Random.derive(seed, eventId, PURPOSE)`), stable whatever else is drawn. */
  static derive(...parts: readonly number[]): Random {
    return new Random(hash32(...parts));
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 0x1_0000_0000;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    if (max < min) throw new RangeError(`int(${min}, ${max}): max is below min`);
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick() from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One item, chosen with probability proportional to `weight(item)`. */
  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    let total = 0;
    for (const item of items) total += Math.max(0, weight(item));
    if (items.length === 0 || total <= 0) throw new RangeError('weighted() needs at least one positive weight');
    let x = this.next() * total;
    for (const item of items) {
      x -= Math.max(0, weight(item));
      if (x < 0) return item;
    }
    // Floating-point residue can leave x at exactly 0 after the last item.
    return items[items.length - 1] as T;
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /** `count` distinct items in random order (all of them when there are fewer). */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, count));
  }

  /**
   * Roughly normal: the Irwin-Hall sum of six uniforms, rescaled. Bounded at about mean ± 4.2 sd, which is what
   * generated data wants (no 30 km courses), and needs no `Math.log`/`Math.cos`.
   */
  normal(mean: number, sd: number): number {
    let sum = 0;
    for (let i = 0; i < 6; i++) sum += this.next();
    // Sum of 6 uniforms: mean 3, variance 6/12 = 0.5.
    return mean + ((sum - 3) / Math.SQRT1_2) * sd;
  }
}
