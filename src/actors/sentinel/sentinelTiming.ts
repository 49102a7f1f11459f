// Redis Sentinel's timing, as this simulation uses it (each named after Redis's own constant).

/** Sentinel's PING period (and the period of its loop here). */
export const PING_PERIOD_MS = 1000;
/** INFO to each node this often (Redis: sentinel_info_period)... */
export const INFO_PERIOD_MS = 10_000;
/** ...and every second to replicas while their primary is objectively down or failing over. */
export const INFO_PERIOD_IN_TROUBLE_MS = 1000;
/** A primary whose INFO is older than this does not look sane (Redis: sentinel_info_period * 2). */
export const INFO_STALE_MS = 2 * INFO_PERIOD_MS;
/** Another sentinel's "the primary is down" counts for this long (Redis: SENTINEL_ASK_PERIOD * 5). */
export const OPINION_VALID_MS = 5000;
/** Election timeout cap (Redis: SENTINEL_ELECTION_TIMEOUT). */
export const ELECTION_TIMEOUT_MS = 10_000;
/** Candidates wait a random delay up to this before asking for votes (Redis: SENTINEL_MAX_DESYNC). */
export const MAX_DESYNC_MS = 1000;
/**
 * A node that reports itself a primary against the configuration is turned into a replica once
 * it has said so, and been up, this long (Redis: sentinel_publish_period * 4, four hello periods).
 * Sentinel acts on the node's next INFO after that, so outside a failover about 10 s after it
 * came back. A replica that follows the wrong primary waits failover-timeout instead.
 */
export const CONVERT_AFTER_MS = 8000;
