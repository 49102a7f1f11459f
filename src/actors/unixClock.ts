/**
 * Redis's clocks read Unix time; every simulated node's clock starts at this instant, so a
 * node's Unix time is this plus its process's local clock.
 */
export const EPOCH_MS = 1_700_000_000_000;
