// The streaming event-and-classes reader on generated 10 MB and 50 MB ResultLists, against fast-xml-parser (the
// project's tree parser) on the same bytes as the reference. Each run is a fresh child process, so peak RSS is that
// run's alone: `process.resourceUsage().maxRSS` before and after (it also sees peaks inside synchronous parsing).
//
//   npm run build && node bench/iof-reader.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateResultList } from './generate-iof.mjs';

const MiB = 1024 * 1024;
const SELF = fileURLToPath(import.meta.url);

/** One measured run in this process: `kind` is `reader` or `fxp`. Prints one JSON line. */
async function child(kind, file) {
  const warm = generateResultList({ targetBytes: 1_000_000, seed: 2 });
  let run;
  if (kind === 'reader') {
    const { readEventAndClasses } = await import('../dist/iof/event-classes/read.js');
    run = async (input) => {
      const r = await readEventAndClasses(input);
      return { classes: r.classes.length, persons: r.counts.persons };
    };
  } else {
    const { XMLParser } = await import('fast-xml-parser');
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      removeNSPrefix: true,
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: true,
      isArray: (name) => name === 'ClassResult' || name === 'PersonResult',
    });
    run = async (input) => {
      const bytes = typeof input === 'string' ? readFileSync(input) : input;
      const doc = parser.parse(new TextDecoder().decode(bytes));
      const classes = doc.ResultList.ClassResult;
      return { classes: classes.length, persons: classes.reduce((n, c) => n + (c.PersonResult?.length ?? 0), 0) };
    };
  }
  await run(warm);
  const before = process.resourceUsage().maxRSS;
  const t0 = performance.now();
  const counted = await run(file);
  const seconds = (performance.now() - t0) / 1000;
  const after = process.resourceUsage().maxRSS;
  process.stdout.write(JSON.stringify({ seconds, peakRssIncreaseMiB: (after - before) / 1024, ...counted }) + '\n');
}

/** Native libxml2 reading the same file as a stream (well-formedness only), when `xmllint` is installed. */
function measureXmllint(file) {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  const t0 = performance.now();
  // GNU time reports the peak RSS of xmllint itself; without it, only the time is shown.
  const timed = spawnSync('/usr/bin/time', ['-f', '%M', 'xmllint', '--noout', '--stream', file], { encoding: 'utf8' });
  let peakKiB;
  if (timed.status === 0) peakKiB = Number(timed.stderr.trim().split('\n').pop());
  else execFileSync('xmllint', ['--noout', '--stream', file], { stdio: 'ignore' });
  return { seconds: (performance.now() - t0) / 1000, peakRssMiB: peakKiB === undefined ? undefined : peakKiB / 1024 };
}

function measure(kind, file) {
  const out = execFileSync(process.execPath, ['--max-old-space-size=4096', SELF, '--child', kind, file], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').pop());
}

/** Runs the benchmark and returns its report as text. */
export async function benchIofReader({ sizes = [10_000_000, 50_000_000], seed = 1 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'livelox-iof-bench-'));
  const lines = [
    'IOF event-and-classes reader (streaming) vs fast-xml-parser (tree, reference), generated ResultList, fresh process each',
  ];
  try {
    for (const size of sizes) {
      const file = join(dir, `ResultList-${size}.xml`);
      const bytes = generateResultList({ targetBytes: size, seed });
      writeFileSync(file, bytes);
      const mib = bytes.byteLength / MiB;
      const reader = measure('reader', file);
      const fxp = measure('fxp', file);
      if (reader.classes !== fxp.classes || reader.persons !== fxp.persons) {
        throw new Error(`the two parsers disagree on ${file}: ${JSON.stringify({ reader, fxp })}`);
      }
      const row = (name, r) =>
        `  ${name.padEnd(22)} ${(mib / r.seconds).toFixed(1).padStart(7)} MiB/s  ${r.seconds.toFixed(2).padStart(6)} s  peak RSS +${r.peakRssIncreaseMiB.toFixed(0).padStart(4)} MiB`;
      lines.push(
        `${mib.toFixed(1)} MiB, ${reader.classes} classes, ${reader.persons} persons:`,
        row('streaming reader', reader),
        row('fast-xml-parser', fxp),
        `  ratio: ${(fxp.seconds / reader.seconds).toFixed(1)}x the reference throughput, ` +
          `${(reader.peakRssIncreaseMiB / Math.max(1, fxp.peakRssIncreaseMiB)).toFixed(2)}x its peak memory`,
      );
      const native = measureXmllint(file);
      if (native) {
        const rss =
          native.peakRssMiB === undefined
            ? ''
            : `  peak RSS ${native.peakRssMiB.toFixed(0).padStart(5)} MiB (whole process)`;
        lines.push(
          `  ${'xmllint --stream'.padEnd(22)} ${(mib / native.seconds).toFixed(1).padStart(7)} MiB/s  ${native.seconds.toFixed(2).padStart(6)} s${rss}  (native libxml2, well-formedness only, for scale)`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines.join('\n');
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4]);
} else if (process.argv[1] === SELF) {
  console.log(await benchIofReader());
}
