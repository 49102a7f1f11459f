/** Each lesson's first runs, computed at build time by src/ui/build/firstRunsPlugin.ts. */
declare module 'virtual:lockstep-first-runs' {
  import type { ShippedRuns } from './firstRuns';
  /** The lesson's precomputed runs (its chunk is fetched on first call); empty when it has none, and always in `vite dev`. */
  export function loadFirstRuns(slug: string): Promise<ShippedRuns>;
  /** The sandbox's opening world's run under the key `sandbox` (its chunk is fetched on first call); empty in `vite dev`. */
  export function loadSandboxFirstRuns(): Promise<ShippedRuns>;
}
