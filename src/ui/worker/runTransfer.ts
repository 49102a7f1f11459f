import * as Comlink from 'comlink';
import type { ComputedRun } from '../player/runModel';

/**
 * A run crosses from the simulation worker to the page as one JSON string rather than by
 * structured clone of its events. A string is copied whole, and the page's JSON.parse builds
 * fifteen thousand events (lesson 13's herd) in a fraction of the time that deserializing as
 * many cloned objects took on its main thread (~20 against ~55 ms, plus the young-generation
 * collection that followed). Both threads import this module, so both know the format.
 */
Comlink.transferHandlers.set('computed-run', {
  canHandle: (value: unknown): value is ComputedRun =>
    typeof value === 'object' && value !== null && typeof (value as Partial<ComputedRun>).traceHash === 'string' && Array.isArray((value as Partial<ComputedRun>).events),
  serialize: (run: ComputedRun) => [JSON.stringify(run), []],
  deserialize: (json: string) => JSON.parse(json) as ComputedRun,
} satisfies Comlink.TransferHandler<ComputedRun, string> as Comlink.TransferHandler<unknown, unknown>);
