import type { ComputedRun } from '../player/runModel';
import { nextTask } from '../slicedWork';

/**
 * A run as it crosses from the simulation worker to the page: its events as JSON text, in
 * slices of UTF-8 bytes. JSON.parse builds events far faster than structured clone
 * deserializes as many objects (lesson 13's herd: ~20 against ~55 ms on the page, plus the
 * collection after). Slices keep the page answering while a long run arrives: a run cut at
 * 200,000 events is 21 MB of JSON, which parsed at once held the page's main thread for 400 ms
 * and more; parsed a slice per task, no task holds it long. Bytes rather than strings because
 * bytes are handed over (transferred) where strings are copied, and the copy of 21 MB was made
 * in one task as the message arrived (over 300 ms on a busy machine).
 */
export interface RunParcel extends Omit<ComputedRun, 'events'> {
  /** The events in order, each slice a JSON array of at most SLICE_EVENTS of them, as UTF-8. */
  eventSlices: Uint8Array<ArrayBuffer>[];
}

/** Events per slice: about 1 MB of JSON, parsed in a few tens of milliseconds on a slow machine. */
export const SLICE_EVENTS = 10_000;

/** Packs a run for the page; `onProgress` is told after each slice (see RunOptions.onProgress). */
export function packRun({ events, ...rest }: ComputedRun, onProgress?: () => void): RunParcel {
  const eventSlices: Uint8Array<ArrayBuffer>[] = [];
  const encoder = new TextEncoder();
  for (let from = 0; from < events.length || eventSlices.length === 0; from += SLICE_EVENTS) {
    eventSlices.push(encoder.encode(JSON.stringify(events.slice(from, from + SLICE_EVENTS))));
    onProgress?.();
  }
  return { ...rest, eventSlices };
}

/** The buffers to hand over with a parcel rather than copy (Comlink.transfer's list). */
export function parcelBuffers(parcel: RunParcel): ArrayBuffer[] {
  return parcel.eventSlices.map((slice) => slice.buffer);
}

/** The run a parcel holds, parsed a slice per task (no wait when it has only one slice). */
export async function unpackRun(
  { eventSlices, ...rest }: RunParcel,
  between: () => Promise<void> = nextTask,
): Promise<ComputedRun> {
  const events: ComputedRun['events'] = [];
  const decoder = new TextDecoder();
  for (const [i, slice] of eventSlices.entries()) {
    if (i > 0) await between();
    for (const event of JSON.parse(decoder.decode(slice)) as ComputedRun['events']) events.push(event);
  }
  return { ...rest, events };
}
