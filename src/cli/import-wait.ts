/**
 * How long and how often `import --wait` and `status --wait` ask for a route's import state: both wait on the same
 * service job, so they share one pace.
 */

export const DEFAULT_IMPORT_TIMEOUT_S = 120;
/** First status request this long after the POST, then every 2 s growing to 10 s: imports take 5-15 s. */
export const WAIT_FIRST_POLL_MS = 2000;
export const WAIT_POLL_INTERVAL_MS = 2000;
export const WAIT_MAX_POLL_INTERVAL_MS = 10_000;
