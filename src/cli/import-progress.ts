/**
 * What `import` shows while it works, on stderr: a progress bar on a terminal (cli-progress: it redraws one line,
 * handles narrow terminals and stops cleanly), plain lines elsewhere (a log keeps them; every route's end with
 * `--progress-lines`, else one line every few seconds), nothing with `--quiet`. Posting and settling are shown
 * apart: `120/150 done: posted 96/150, imported 0, pending 96` says where a batch waiting for its imports is, where a
 * single count would sit at 0 while the routes go out. Rate and time left count the routes this run finished, so
 * routes skipped from the journal do not make a fresh batch look fast. A dry run counts the routes checked.
 */
import { stderr } from 'node:process';
import { SingleBar } from 'cli-progress';
import type { ImportProgress } from '../jobs/import-routes/job.js';

export type ProgressMode = 'bar' | 'lines' | 'periodic' | 'none';

/** Plain lines without --progress-lines: one at most this often. */
const PERIODIC_MS = 5000;

export interface ProgressView {
  update(p: ImportProgress): void;
  stop(): void;
}

/** Routes that have their report: done, whatever the outcome (a route being waited for is pending, not done). */
function finished(p: ImportProgress): number {
  return p.imported + p.errors + p.failed + p.pending - p.waiting + p.notSent + p.skipped;
}

function seconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.round(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/**
 * One progress line: done of total, posted of total, the outcomes so far, routes per second and the time left (in a
 * dry run, checked of total).
 */
export function progressLine(p: ImportProgress, elapsedMs: number, dryRun = false): string {
  const done = finished(p);
  if (dryRun) return `progress: ${done}/${p.total} checked`;
  const rate = elapsedMs > 0 ? (done - p.skipped) / (elapsedMs / 1000) : 0;
  const left = rate > 0 ? (p.total - done) / rate : Number.POSITIVE_INFINITY;
  return (
    `progress: ${done}/${p.total} done: posted ${p.posted}/${p.total}, imported ${p.imported}, skipped ${p.skipped}, ` +
    `pending ${p.pending}, failed ${p.failed + p.errors}; ${rate.toFixed(1)} routes/s, ` +
    (done === p.total ? 'done' : `~${seconds(left)} left`)
  );
}

export function progressView(
  mode: ProgressMode,
  write: (line: string) => void,
  total: number,
  dryRun = false,
): ProgressView {
  const started = performance.now();
  if (mode === 'none') return { update: () => {}, stop: () => {} };
  if (mode === 'bar') {
    const bar = new SingleBar({
      stream: stderr,
      format: dryRun
        ? '{bar} {value}/{total} checked'
        : '{bar} {value}/{total} done | posted {posted}/{total} | imported {imported} | pending {pending} | failed {failed} | {rate}/s | {left} left',
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    });
    bar.start(total, 0, { posted: 0, imported: 0, pending: 0, failed: 0, rate: '0.0', left: '?' });
    return {
      update(p) {
        const elapsed = (performance.now() - started) / 1000;
        const done = finished(p);
        const rate = elapsed > 0 ? (done - p.skipped) / elapsed : 0;
        bar.update(done, {
          posted: p.posted,
          imported: p.imported + p.skipped,
          pending: p.pending,
          failed: p.failed + p.errors,
          rate: rate.toFixed(1),
          left: rate > 0 ? seconds((p.total - done) / rate) : '?',
        });
      },
      stop: () => bar.stop(),
    };
  }
  let last = 0;
  let latest: ImportProgress | undefined;
  let shown: ImportProgress | undefined;
  return {
    update(p) {
      latest = p;
      const now = performance.now();
      if (mode === 'lines' || now - last >= PERIODIC_MS) {
        last = now;
        shown = p;
        write(progressLine(p, now - started, dryRun));
      }
    },
    stop() {
      // The last state is said once, so that a log ends with the totals.
      if (mode === 'periodic' && latest && latest !== shown) {
        write(progressLine(latest, performance.now() - started, dryRun));
      }
    },
  };
}
