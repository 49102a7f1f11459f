/** Each lesson's first runs, computed at build time by src/ui/build/firstRunsPlugin.ts. */
declare module 'virtual:lockstep-first-runs' {
  import type { FirstRuns } from './firstRuns';
  /** The lesson's precomputed runs (its chunk is fetched on first call); empty when it has none, and always in `vite dev`. */
  export function loadFirstRuns(slug: string): Promise<FirstRuns>;
  /** The sandbox's opening world's run under the key `sandbox` (its chunk is fetched on first call); empty in `vite dev`. */
  export function loadSandboxFirstRuns(): Promise<FirstRuns>;
}
