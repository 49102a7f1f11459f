/**
 * Work that can be paused: a generator that yields wherever its caller may hand the thread back
 * (the page, between two of its tasks). The work itself stays plain and pure; who pauses it,
 * and for how long, is the caller's business (the page's slicedWork.ts).
 */
export type Steps<T> = Generator<void, T, void>;

/** Events a build handles between two places it may be paused: a few milliseconds of work. */
export const EVENTS_PER_STEP = 8192;

/** Runs `steps` to the end without pausing, and answers what they built. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
