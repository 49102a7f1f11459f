import type { Prng } from '../sim/prng';

/**
 * How long one message takes on a link.
 * - fixed: always `ms`.
 * - uniform: any whole ms in [minMs, maxMs], equally likely.
 * - long-tail: most messages take about `medianMs`, a few take far longer (a Pareto tail that
 *   starts at `minMs`), capped at `maxMs`. Real networks look like this: fast, until they are not.
 */
export type LatencyDist =
  | { dist: 'fixed'; ms: number }
  | { dist: 'uniform'; minMs: number; maxMs: number }
  | { dist: 'long-tail'; minMs: number; medianMs: number; maxMs: number };

/** The fault knobs of one link (or of every link), as a plain options object. */
export interface LinkFaults {
  latency: LatencyDist;
  /** Probability that a message is lost. */
  loss: number;
  /** Probability that a message arrives twice (the copy takes its own delay). */
  duplicate: number;
  /** Probability that a message is held back by `reorderDelayMs` more, so later ones overtake it. */
  reorder: number;
  reorderDelayMs: number;
}

export const DEFAULT_FAULTS: LinkFaults = {
  latency: { dist: 'uniform', minMs: 1, maxMs: 3 },
  loss: 0,
  duplicate: 0,
  reorder: 0,
  reorderDelayMs: 50,
};

/** Draws one delay in whole ms. Uniform draws exactly one integer, so old seeds keep their delays. */
export function drawLatencyMs(random: Prng, latency: LatencyDist): number {
  switch (latency.dist) {
    case 'fixed':
      return latency.ms;
    case 'uniform':
      return random.int(latency.minMs, latency.maxMs);
    case 'long-tail': {
      // Pareto with scale minMs and the shape that puts the median at medianMs:
      // median = min * 2^(1/alpha)  =>  alpha = ln 2 / ln(median / min).
      const min = Math.max(1, latency.minMs);
      const ratio = Math.max(latency.medianMs / min, 1.0001);
      const alpha = Math.LN2 / Math.log(ratio);
      const u = 1 - random.float();
      return Math.min(latency.maxMs, Math.round(min / u ** (1 / alpha)));
    }
  }
}

/** One sentence for the inspector: "1–3 ms", "50 ms", "long tail: median 5 ms, up to 2000 ms". */
export function describeLatency(latency: LatencyDist): string {
  switch (latency.dist) {
    case 'fixed':
      return `${latency.ms} ms`;
    case 'uniform':
      return `${latency.minMs}–${latency.maxMs} ms`;
    case 'long-tail':
      return `long tail: median ${latency.medianMs} ms, up to ${latency.maxMs} ms`;
  }
}
