import { useMemo, useState } from 'react';
import type { TraceEvent } from '../../sim/traceEvents';
import { describeEventLine } from '../../timeline/describeEvent';

export interface EventListProps {
  events: readonly TraceEvent[];
  /** Index of the current event: events with id <= cursor have happened. */
  cursor: number;
  /** How many of the latest events to show before "Show all" (keeps huge runs responsive). */
  limit?: number;
}

/**
 * The timeline as text: every event so far as one plain sentence, oldest first. This is the
 * equivalent a screen-reader user gets for the space-time diagram.
 */
export function EventList({ events, cursor, limit = 400 }: EventListProps) {
  const [showAll, setShowAll] = useState(false);
  const labelOf = useMemo(() => {
    const labels = new Map<string, string>();
    for (const e of events) if (e.kind === 'run.start') for (const a of e.data.actors) labels.set(a.id, a.label);
    return (id: string) => labels.get(id) ?? id;
  }, [events]);
  const happened = useMemo(() => events.filter((e) => e.id <= cursor), [events, cursor]);
  const shown = showAll ? happened : happened.slice(-limit);
  const hidden = happened.length - shown.length;

  return (
    <div>
      {hidden > 0 && (
        <p>
          Showing the latest {shown.length} of {happened.length} events.{' '}
          <button type="button" onClick={() => setShowAll(true)}>
            Show all {happened.length}
          </button>
        </p>
      )}
      <ol
        className="event-list"
        start={shown[0] ? shown[0].id + 1 : 1}
        tabIndex={0}
        aria-label="Events so far, oldest first"
      >
        {shown.map((e) => {
          const rejected = e.kind === 'resource.write' && !e.data.accepted;
          return (
            <li key={e.id} className={rejected ? 'event-list-rejected' : undefined}>
              {rejected && <span aria-hidden="true">⊠ </span>}
              {e.kind === 'resource.write' && e.data.accepted && <span aria-hidden="true">● </span>}
              {describeEventLine(e, labelOf)}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
