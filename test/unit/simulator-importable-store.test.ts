import { describe, expect, it } from 'vitest';
import { ImportableEventStore } from '../../src/simulator/importable-store.js';

const object = { name: 'x', maps: [], courseDataFileNames: ['c.xml'] };
const files = (bytes: number) => new Map([['c.xml', new Uint8Array(bytes)]]);

describe('the simulator keeps importable events within a byte budget', () => {
  it('drops the oldest events once their files pass it, never the one just given files', () => {
    const store = new ImportableEventStore(1000);
    const a = store.create('app:a', 'a', object);
    const b = store.create('app:a', 'a', object);
    const c = store.create('app:a', 'a', object);
    store.setFiles(a, files(400));
    store.setFiles(b, files(400));
    expect(store.list()).toEqual([a, b, c]);
    store.setFiles(c, files(400));
    expect(store.list()).toEqual([b, c]);
    expect(store.get(a.id)).toBeUndefined();
    // One event larger than the budget alone is kept: there is nothing older to drop but the others.
    store.setFiles(b, files(5000));
    expect(store.list()).toEqual([b]);
  });
});
