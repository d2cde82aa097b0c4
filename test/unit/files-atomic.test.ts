/** An atomic write cleans up after a writer that was killed between creating its temporary file and renaming it. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/core/files.js';

const dir = mkdtempSync(join(tmpdir(), 'lb-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it("removes a dead writer's temporary file of the same target and leaves a live one's", async () => {
    // A process that has ended: its pid is free (not reused within the test).
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const abandoned = join(dir, `.links.json.${dead}.0123456789ab.tmp`);
    const live = join(dir, `.links.json.${process.pid}.ba9876543210.tmp`);
    const other = join(dir, `.other.json.${dead}.0123456789ab.tmp`);
    for (const f of [abandoned, live, other]) writeFileSync(f, 'half');
    await writeFileAtomic(join(dir, 'links.json'), '{"events":[]}\n');
    expect(readFileSync(join(dir, 'links.json'), 'utf8')).toBe('{"events":[]}\n');
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(live)).toBe(true);
    // Another target's temporary files are not this write's concern.
    expect(existsSync(other)).toBe(true);
  });
});
