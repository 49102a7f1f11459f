import type { TraceEvent } from '../../sim/traceEvents';
import type { ComputedRun } from './runModel';

/**
 * A run packed for shipping: the same events, verdicts and hash, without the field names and
 * repeated strings that make up most of a run's JSON. Fifteen thousand events (lesson 13's
 * herd) are 1.6 MB of JSON and 170 KB gzipped as they stand; packed, 0.5 MB and 56 KB, and the
 * page parses a third of the text. An event's id is its index and is not stored.
 */
export interface PackedRun {
  /** Every distinct kind, actor and set of data fields in the run, once: `[kind, actor, ...fields]`. */
  shapes: string[][];
  /**
   * Per event, in trace order: its time (`at` minus the previous event's `at`, or `[at]` when
   * that difference would not give `at` back exactly), its shape's index, then its data's values
   * in the order of its shape's fields.
   */
  events: unknown[];
  verdicts: ComputedRun['verdicts'];
  traceHash: string;
  ended: ComputedRun['ended'];
}

export function packRun(run: ComputedRun): PackedRun {
  const shapes: string[][] = [];
  const shapeIndex = new Map<string, number>();
  const events: unknown[] = [];
  let previousAt = 0;
  for (const [index, event] of run.events.entries()) {
    if (event.id !== index)
      throw new Error(
        `cannot pack a run whose event ${index} has id ${event.id}: an event's id must be its index in the trace`,
      );
    // JSON leaves out a field whose value is undefined; so does the packed run.
    const data = event.data as unknown as Record<string, unknown>;
    const fields = Object.keys(data).filter((field) => data[field] !== undefined);
    const shape = [event.kind, event.actor, ...fields];
    const id = JSON.stringify(shape);
    let shapeAt = shapeIndex.get(id);
    if (shapeAt === undefined) {
      shapeAt = shapes.push(shape) - 1;
      shapeIndex.set(id, shapeAt);
    }
    const delta = event.at - previousAt;
    events.push(previousAt + delta === event.at ? delta : [event.at], shapeAt);
    for (const field of fields) events.push(data[field]);
    previousAt = event.at;
  }
  return { shapes, events, verdicts: run.verdicts, traceHash: run.traceHash, ended: run.ended };
}

/** The run `packRun` packed, equal to it field for field (and in the same field order). */
export function unpackRun(packed: PackedRun): ComputedRun {
  const { shapes, events: stream } = packed;
  const events: TraceEvent[] = [];
  let at = 0;
  for (let i = 0; i < stream.length;) {
    const time = stream[i++];
    at = typeof time === 'number' ? at + time : (time as [number])[0];
    const shape = shapes[stream[i++] as number];
    if (!shape)
      throw new Error(
        `packed run: event ${events.length} names shape ${String(stream[i - 1])}, which the run does not have`,
      );
    const data: Record<string, unknown> = {};
    for (let f = 2; f < shape.length; f++) data[shape[f]!] = stream[i++];
    events.push({ id: events.length, at, kind: shape[0], actor: shape[1], data } as unknown as TraceEvent);
  }
  return { events, verdicts: packed.verdicts, traceHash: packed.traceHash, ended: packed.ended };
}
