/**
 * publishJob in process against the simulator, for what the CLI tests cannot time: a person importing between the
 * job's GET and its PUT (the re-import decided by the PUT's answer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey } from '../../src/auth/api-key.js';
import { LiveloxClient } from '../../src/client.js';
import { publishJob, type PublishJobOptions } from '../../src/jobs/publish/job.js';
import { openPublishState, type PublishStateFile } from '../../src/store/publish-state.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { PUBLISH_CASES, browserStep, writeMapImages } from '../helpers/publish-cli.js';

const OCAD = PUBLISH_CASES[0]!;
const dir = mkdtempSync(join(tmpdir(), 'lb-publish-job-'));
let sim: Simulator;
let n = 0;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  writeMapImages(dir);
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

function clientOf(s: Simulator): LiveloxClient {
  return new LiveloxClient({ auth: apiKey(s.info.apiKey), baseUrl: s.info.baseUrl, ratePerSecond: 0 });
}

function options(state: PublishStateFile, more: Partial<PublishJobOptions> = {}): PublishJobOptions {
  return { courseFile: OCAD.file, map: { image: join(dir, OCAD.image.name) }, state, ...more };
}

describe('publishJob: the re-import', () => {
  it("follows the PUT's answer: imported by a person after the GET, it is imported again", async () => {
    const state = openPublishState(join(dir, `state-${++n}.sqlite`));
    const client = clientOf(sim);
    try {
      const first = await publishJob(client, options(state));
      expect(first.state).toBe('waiting-for-browser-step');
      const id = first.importableId!;
      // The GET answers "not imported"; the person imports before the PUT, whose answer has no import URL any more.
      const get = client.importableEvents.get.bind(client.importableEvents);
      client.importableEvents.get = async (...args) => {
        const answer = await get(...args);
        if (answer.importedEvent === null) await browserStep(sim, id);
        return answer;
      };
      const again = await publishJob(client, options(state));
      expect(again).toMatchObject({ action: 'update', importableId: id, state: 'imported' });
      expect(again.links.importUrl).toBeUndefined();
    } finally {
      state.close();
      await client.close();
    }
  });
});

describe('publishJob: run again after a crash that followed the create', () => {
  it('a GET answering 404 for an event never given its files is not gone: the PUT and the upload go to it', async () => {
    const quiet = await startSimulator({ port: 0, importableNotFoundWithoutFiles: true });
    const state = openPublishState(join(dir, `state-${++n}.sqlite`));
    const crashed = clientOf(quiet);
    const client = clientOf(quiet);
    try {
      // The run dies after the create was recorded, before its upload.
      crashed.importableEvents.uploadFiles = () => Promise.reject(new Error('killed'));
      await expect(publishJob(crashed, options(state))).rejects.toThrow('killed');
      const [made] = quiet.state.importableEvents.list();
      expect(made?.files.size).toBe(0);
      const again = await publishJob(client, options(state));
      expect(again).toMatchObject({ action: 'update', importableId: made!.id, state: 'waiting-for-browser-step' });
      expect(again.replacedGone).toBeUndefined();
      expect(quiet.state.importableEvents.list()).toHaveLength(1);
      expect(quiet.stats.snapshot().byEndpoint['POST /importableEvents']).toEqual({ '200': 1 });
    } finally {
      state.close();
      await Promise.all([crashed.close(), client.close(), quiet.close()]);
    }
  });
});
