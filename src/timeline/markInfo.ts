import { formatMs } from '../sim/time';
import { describeEvent, eventDetailRows } from './describeEvent';
import type { Band } from './layers/intervals';
import { describeInterval } from './layers/intervals';
import type { RenderContext } from './layers/context';
import type { Glyph } from './layers/glyphShapes';
import type { Interval, MessageMark } from './modelTypes';

/** What a mark says about itself: the event it selects, a headline and detail rows. */
export interface MarkInfo {
  eventId: number;
  headline: string;
  rows: [string, string][];
}

/**
 * Reads the datum D3 bound to a mark element and describes it for the tooltip and for screen
 * readers. Intervals are described as of `cursorMs`, so nothing after the playhead leaks out.
 */
export function markInfo(ctx: RenderContext, el: Element, cursorMs: number): MarkInfo | null {
  const datum = (el as Element & { __data__?: unknown }).__data__;
  if (!datum || typeof datum !== 'object') return null;
  const cls = el.classList;
  const eventRows = (id: number) => {
    const e = ctx.model.eventById.get(id);
    return e
      ? { headline: describeEvent(e, ctx.labelOf), rows: eventDetailRows(e, ctx.labelOf) }
      : { headline: `event ${id}`, rows: [] };
  };
  if (cls.contains('tl-glyph')) {
    const g = datum as Glyph;
    if (g.kind === 'verdict') {
      const v = g.violation;
      return {
        eventId: g.id,
        headline: v.explanation,
        rows: [
          ['invariant', `${v.invariant} broken`],
          ['time', formatMs(v.atMs)],
          ['events', v.eventIds.map((id) => `#${id}`).join(', ')],
        ],
      };
    }
    // A sentinel's burst tells each of its steps, in order.
    const ids = g.kind === 'write' ? undefined : g.point.eventIds;
    if (g.kind !== 'write' && ids && ids.length > 1) {
      const steps = ids.map(
        (id) => [formatMs(ctx.model.eventById.get(id)?.at ?? g.at), eventRows(id).headline] as [string, string],
      );
      return {
        eventId: g.id,
        headline: `${g.point.lines?.join(', ') ?? g.point.label}: ${steps.map((step) => step[1]).join(' ')}`,
        rows: steps,
      };
    }
    return { eventId: g.id, ...eventRows(g.id) };
  }
  if (cls.contains('tl-interval') || cls.contains('tl-band')) {
    const interval = cls.contains('tl-band') ? (datum as Band).interval : (datum as Interval);
    if (!interval) return null;
    const start = ctx.model.eventById.get(interval.startId);
    return {
      eventId: interval.startId,
      headline: describeInterval(interval, ctx.labelOf, cursorMs, ctx.model.lockServer),
      rows: start ? eventDetailRows(start, ctx.labelOf) : [],
    };
  }
  if (cls.contains('tl-msg')) {
    const m = datum as MessageMark;
    const info = eventRows(m.sendId);
    const fate =
      m.fate === 'dropped' ? `dropped (${m.dropReason})` : m.fate === 'inFlight' ? 'not delivered yet' : m.fate;
    return {
      eventId: m.sendId,
      headline: info.headline,
      rows: [...info.rows, ['fate', fate], ['took', formatMs(m.endMs - m.startMs)]],
    };
  }
  return null;
}
