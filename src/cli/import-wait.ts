/**
 * How long `import --wait` and `status --wait` wait for a route's import, and how often `status --wait` asks (a bulk
 * import paces its own polls from the batch: jobs/import-routes/pace.ts).
 */

export const DEFAULT_IMPORT_TIMEOUT_S = 120;
/** A status request every 2 s growing to 10 s: imports take 5-15 s. */
export const WAIT_POLL_INTERVAL_MS = 2000;
export const WAIT_MAX_POLL_INTERVAL_MS = 10_000;
