import type { Steps } from '../sim/steps';

/**
 * Lets the page's other work run: a new task, so input and painting get their turn. A message
 * to oneself rather than setTimeout(0), which browsers stretch to 4 ms once nested.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** How long one slice of work may hold the page's thread: well inside a 50 ms long task. */
export const SLICE_MS = 12;

/**
 * Runs `steps` a slice at a time, each slice as many steps as fit in SLICE_MS, with a task
 * between slices; answers what they built, or null once `cancelled()` says it is no longer
 * wanted (checked between slices).
 */
export async function runInSlices<T>(
  steps: Steps<T>,
  cancelled: () => boolean,
  between: () => Promise<void> = nextTask,
): Promise<T | null> {
  for (;;) {
    const sliceEnd = performance.now() + SLICE_MS;
    do {
      const next = steps.next();
      if (next.done) return next.value;
    } while (performance.now() < sliceEnd);
    await between();
    if (cancelled()) return null;
  }
}
