import type { ComputedRun } from '../player/runModel';

/**
 * A run as it crosses from the simulation worker to the page: its events as JSON text, in
 * slices. A string crosses a worker boundary as one copy, and JSON.parse builds events far
 * faster than structured clone deserializes as many objects (lesson 13's herd: ~20 against
 * ~55 ms on the page, plus the collection after). Slices keep the page answering while a long
 * run arrives: a run cut at 200,000 events is 21 MB of JSON, which parsed at once held the
 * page's main thread for 400 ms and more; parsed a slice per task, no task holds it long.
 */
export interface RunParcel extends Omit<ComputedRun, 'events'> {
  /** The events in order, each slice a JSON array of at most SLICE_EVENTS of them. */
  eventSlices: string[];
}

/** Events per slice: about 1 MB of JSON, parsed in a few tens of milliseconds on a slow machine. */
export const SLICE_EVENTS = 10_000;

/** Packs a run for the page; `onProgress` is told after each slice (see RunOptions.onProgress). */
export function packRun({ events, ...rest }: ComputedRun, onProgress?: () => void): RunParcel {
  const eventSlices: string[] = [];
  for (let from = 0; from < events.length || eventSlices.length === 0; from += SLICE_EVENTS) {
    eventSlices.push(JSON.stringify(events.slice(from, from + SLICE_EVENTS)));
    onProgress?.();
  }
  return { ...rest, eventSlices };
}

/** Lets the page's other work run: a macrotask, so input and painting get their turn between slices. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The run a parcel holds, parsed a slice per task (no wait when it has only one slice). */
export async function unpackRun({ eventSlices, ...rest }: RunParcel, between: () => Promise<void> = nextTask): Promise<ComputedRun> {
  const events: ComputedRun['events'] = [];
  for (const [i, slice] of eventSlices.entries()) {
    if (i > 0) await between();
    for (const event of JSON.parse(slice) as ComputedRun['events']) events.push(event);
  }
  return { ...rest, events };
}
