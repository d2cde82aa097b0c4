// IOF XML validation (xmllint-wasm through src/iof/validate/) against native `xmllint --schema` as the reference,
// measured in the same run on the same files: 1 course document, a batch of 50 course files (one call, and 50
// concurrent callers coalesced), one 10 MB and one 50 MB generated ResultList. Ratios are ours / native: 1.0x is as
// fast as native, higher is slower. Peak RSS is the whole process's, sampled while our validator runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { iofSchemaPath } from '../dist/iof/schema-path.js';
import { createIofValidator } from '../dist/iof/validate/validate.js';
import { generateCourseData, generateResultList } from './generate-iof.mjs';

const MiB = 1024 * 1024;

function hasNativeXmllint() {
  const run = spawnSync('xmllint', ['--version'], { encoding: 'utf8' });
  return run.error === undefined && run.status === 0;
}

/** Best wall time of `runs` runs of `fn`, with the peak RSS seen during them. */
async function time(fn, runs) {
  let best = Infinity;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 10);
  let value;
  try {
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      value = await fn();
      best = Math.min(best, performance.now() - t0);
    }
  } finally {
    clearInterval(sampler);
  }
  return { ms: best, peakRss: Math.max(peakRss, process.memoryUsage().rss), value };
}

function native(paths) {
  const run = spawnSync('xmllint', ['--noout', '--schema', iofSchemaPath(), ...paths], {
    encoding: 'utf8',
    maxBuffer: 256 * MiB,
  });
  if (run.status !== 0) throw new Error(`native xmllint did not validate: ${run.stderr.slice(0, 300)}`);
}

function fmtMs(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

export async function benchIofValidate({ runs = 3 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-iof-validate-'));
  const withNative = hasNativeXmllint();
  try {
    const oneCourse = generateCourseData({ courses: 20, controls: 60, seed: 1 });
    const fiftyCourses = Array.from({ length: 50 }, (_, i) =>
      generateCourseData({ courses: 5 + (i % 20), controls: 25 + (i % 40), seed: i + 1 }),
    );
    const tenMb = generateResultList({ targetBytes: 10_000_000, seed: 1 });
    const fiftyMb = generateResultList({ targetBytes: 50_000_000, seed: 2 });
    const file = (name, bytes) => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    };
    const onePath = file('course.xml', oneCourse);
    const fiftyPaths = fiftyCourses.map((b, i) => file(`course-${i}.xml`, b));
    const tenPath = file('results-10mb.xml', tenMb);
    const fiftyMbPath = file('results-50mb.xml', fiftyMb);
    const docs = fiftyCourses.map((bytes, i) => ({ name: `course-${i}.xml`, bytes }));
    const allValid = (results) => {
      const bad = [results].flat().filter((r) => r.valid !== true);
      if (bad.length > 0) throw new Error(`not valid: ${JSON.stringify(bad[0]).slice(0, 300)}`);
    };

    const cases = [
      {
        label: `1 course document (${(oneCourse.length / 1024).toFixed(0)} KiB)`,
        runs,
        ours: async () => allValid(await createIofValidator().validate(oneCourse)),
        native: () => native([onePath]),
      },
      {
        label: `batch of 50 course files (${(fiftyCourses.reduce((n, b) => n + b.length, 0) / MiB).toFixed(1)} MiB), one call`,
        runs,
        ours: async () => allValid(await createIofValidator().validate(docs)),
        native: () => native(fiftyPaths),
      },
      {
        label: '50 course files, 50 concurrent callers',
        runs,
        ours: async () => {
          const validator = createIofValidator();
          allValid(await Promise.all(docs.map((d) => validator.validate(d.bytes, { name: d.name }))));
          return validator.stats().batches;
        },
        native: () => native(fiftyPaths),
      },
      {
        label: '50 course files, one call each, not coalesced',
        runs: 1,
        ours: async () => {
          for (const d of docs) allValid(await createIofValidator().validate(d.bytes, { name: d.name }));
          return docs.length;
        },
        native: () => {
          for (const path of fiftyPaths) native([path]);
        },
      },
      {
        label: `ResultList ${(tenMb.length / 1e6).toFixed(0)} MB`,
        runs: Math.min(runs, 2),
        ours: async () => allValid(await createIofValidator().validate(tenMb)),
        native: () => native([tenPath]),
      },
      {
        label: `ResultList ${(fiftyMb.length / 1e6).toFixed(0)} MB`,
        runs: 1,
        ours: async () => allValid(await createIofValidator().validate(fiftyMb)),
        native: () => native([fiftyMbPath]),
      },
    ];

    const lines = [
      'IOF XML validation: xmllint-wasm via validate() against native xmllint --schema (ratio = ours / native)',
    ];
    if (!withNative) {
      lines.push('  native xmllint not installed: no reference measured (apt-get install libxml2-utils to compare)');
    }
    for (const c of cases) {
      const ours = await time(c.ours, c.runs);
      const ref = withNative ? await time(c.native, c.runs) : undefined;
      const batches =
        typeof ours.value === 'number' ? ` in ${ours.value} xmllint run${ours.value === 1 ? '' : 's'}` : '';
      const ratio = ref ? `  native ${fmtMs(ref.ms).padStart(8)}  ${(ours.ms / ref.ms).toFixed(1).padStart(5)}x` : '';
      lines.push(
        `  ${c.label.padEnd(52)} ${fmtMs(ours.ms).padStart(8)}${ratio}  peak RSS ${(ours.peakRss / MiB).toFixed(0)} MiB${batches}`,
      );
    }
    return lines.join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchIofValidate());
