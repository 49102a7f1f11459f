/**
 * The p-th percentile (0..100) of `values` (nearest rank; 50 is the median), 0 when there are
 * none. For the Node-side benches; the timeline's bench page keeps its own copy
 * (src/timeline/bench/measureTimeline.ts), as the layer rule keeps src/timeline from importing here.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
