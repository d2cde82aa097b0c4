/**
 * What `import` shows while it works, on stderr: a progress bar on a terminal (cli-progress: it redraws one line,
 * handles narrow terminals and stops cleanly), plain lines elsewhere (a log keeps them; every route's end with
 * `--progress-lines`, else one line every few seconds), nothing with `--quiet`. Rate and time left count the routes
 * this run finished, so routes skipped from the journal do not make a fresh batch look fast.
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

/** Routes that have their report: done, whatever the outcome. */
function finished(p: ImportProgress): number {
  return p.imported + p.errors + p.failed + p.pending + p.notSent + p.skipped;
}

function seconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.round(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** One progress line: done of total, the outcomes so far, routes per second and the time left. */
export function progressLine(p: ImportProgress, elapsedMs: number): string {
  const done = finished(p);
  const rate = elapsedMs > 0 ? (done - p.skipped) / (elapsedMs / 1000) : 0;
  const left = rate > 0 ? (p.total - done) / rate : Number.POSITIVE_INFINITY;
  return (
    `progress: ${done}/${p.total} done (${p.imported} imported, ${p.skipped} skipped, ${p.pending} pending, ` +
    `${p.failed + p.errors} failed), ${rate.toFixed(1)} routes/s, ${done === p.total ? 'done' : `~${seconds(left)} left`}`
  );
}

export function progressView(mode: ProgressMode, write: (line: string) => void, total: number): ProgressView {
  const started = performance.now();
  if (mode === 'none') return { update: () => {}, stop: () => {} };
  if (mode === 'bar') {
    const bar = new SingleBar({
      stream: stderr,
      format:
        '{bar} {value}/{total} | imported {imported} | pending {pending} | failed {failed} | {rate}/s | {left} left',
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    });
    bar.start(total, 0, { imported: 0, pending: 0, failed: 0, rate: '0.0', left: '?' });
    return {
      update(p) {
        const elapsed = (performance.now() - started) / 1000;
        const done = finished(p);
        const rate = elapsed > 0 ? (done - p.skipped) / elapsed : 0;
        bar.update(done, {
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
        write(progressLine(p, now - started));
      }
    },
    stop() {
      // The last state is said once, so that a log ends with the totals.
      if (mode === 'periodic' && latest && latest !== shown) write(progressLine(latest, performance.now() - started));
    },
  };
}
