import { localTime, unixTime, type LocalClockMs, type UnixMs } from '../../sim/time';

/**
 * Redis's clocks read Unix time; every simulated node's clock starts at this instant, so a
 * node's Unix time is this plus its process's local clock.
 */
export const EPOCH_MS = 1_700_000_000_000;

/** What a node with this local clock reading says the Unix time is. */
export function unixOfLocal(local: LocalClockMs): UnixMs {
  return unixTime(EPOCH_MS + local);
}

/** The local clock reading at which a node's Unix clock shows `unix`. */
export function localOfUnix(unix: UnixMs): LocalClockMs {
  return localTime(unix - EPOCH_MS);
}
