// Redis Sentinel's timing, as this simulation uses it (each named after Redis's own constant).

/** Sentinel's PING period (and the period of everything else it does here). */
export const PING_PERIOD_MS = 1000;
/** Another sentinel's "the primary is down" counts for this long (Redis: SENTINEL_ASK_PERIOD * 5). */
export const OPINION_VALID_MS = 5000;
/** Election timeout cap (Redis: SENTINEL_ELECTION_TIMEOUT). */
export const ELECTION_TIMEOUT_MS = 10_000;
/** Candidates wait a random delay up to this before asking for votes (Redis: SENTINEL_MAX_DESYNC). */
export const MAX_DESYNC_MS = 1000;
/** A node that disagrees with the configuration this long is reconfigured (Redis: 4 × the hello period). */
export const RECONFIGURE_AFTER_MS = 4000;
