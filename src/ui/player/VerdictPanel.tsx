import { useId, useMemo } from 'react';
import { useStore } from 'zustand';
import { describeEvent } from '../../timeline/describeEvent';
import { formatMs } from '../../sim/time';
import type { TraceEvent } from '../../sim/traceEvents';
import { glossaryEntry } from '../glossary/glossary';
import { glossaryHref } from '../routing/route';
import { BugFinder } from './BugFinder';
import type { PlayerStore } from './playerStore';
import { countUpTo, indicesOfKind } from './traceIndex';

/**
 * What the checkers say, revealed only once the playhead reaches the moment it happened, and
 * the resource's log of accepted and rejected writes so far.
 */
export function VerdictPanel({ store }: { store: PlayerStore }) {
  const verdicts = useStore(store, (s) => s.verdicts);
  const events = useStore(store, (s) => s.events);
  // Each of these changes a few times per run, so the panel re-renders a few times, not per step.
  const finished = useStore(store, (s) => s.cursor >= s.events.length - 1);
  const writeCount = useStore(store, (s) => countUpTo(indicesOfKind(s.events, 'resource.write'), s.cursor));
  const brokenKey = useStore(store, (s) =>
    s.verdicts.map((v) => (!v.holds && v.atMs !== null && v.atMs <= s.playheadMs ? 1 : 0)).join(''),
  );
  const writes = useMemo(
    () =>
      indicesOfKind(events, 'resource.write')
        .slice(0, writeCount)
        .map((i) => events[i]!),
    [events, writeCount],
  );
  const first = events[0];
  const labels = new Map(first?.kind === 'run.start' ? first.data.actors.map((a) => [a.id, a.label]) : []);
  const labelOf = (id: string) => labels.get(id) ?? id;
  // The panel is a group named by its heading, so that a screen reader can jump to "What happened".
  const heading = useId();

  return (
    <div className="player-panel" role="group" aria-labelledby={heading} aria-live="polite">
      <h4 id={heading}>What happened</h4>
      <ul className="verdicts">
        {verdicts.map((v, i) => {
          const broken = brokenKey[i] === '1';
          const label = v.invariant.replace(/-/g, ' ');
          return (
            <li key={v.invariant} className={broken ? 'verdict verdict-broken' : 'verdict verdict-ok'}>
              <span className="verdict-icon" aria-hidden="true">
                {broken ? '✕' : finished ? '✓' : '…'}
              </span>
              <div>
                <strong>
                  {broken ? `Broken: ${label}` : finished ? `Held: ${label}` : `So far so good: ${label}`}
                </strong>
                <VerdictMeaning invariant={v.invariant} label={label} />
                {broken ? (
                  <>
                    <p>
                      At {formatMs(v.atMs!)}: {v.explanation}
                    </p>
                    <p className="verdict-evidence">
                      {v.eventIds.map((id) => (
                        <button key={id} type="button" className="link" onClick={() => store.getState().select(id)}>
                          {evidenceLabel(events[id], labelOf)}
                        </button>
                      ))}
                    </p>
                  </>
                ) : (
                  finished && <p>{v.explanation}</p>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <h4>Resource log</h4>
      <ResourceLog writes={writes} labelOf={labelOf} />
      <BugFinder store={store} />
    </div>
  );
}

/** Writes listed as they are; past this many, the latest and every rejected one, the rest behind a disclosure. */
const WRITES_LISTED = 6;

/**
 * The resource's log of writes so far. A herd makes fifty (lesson 13): listed whole, they made
 * the verdicts' panel 2,000 px tall, so past WRITES_LISTED the log counts them, lists the latest
 * five and every rejected write (the one a fencing lesson is about), and keeps every line behind
 * "Every write".
 */
function ResourceLog({ writes, labelOf }: { writes: TraceEvent[]; labelOf: (id: string) => string }) {
  if (writes.length === 0) return <p className="muted">No writes yet.</p>;
  const accepted = (e: TraceEvent) => e.kind === 'resource.write' && e.data.accepted;
  const line = (e: TraceEvent) => (
    <li key={e.id} className={accepted(e) ? 'write-accepted' : 'write-rejected'}>
      <span aria-hidden="true">{accepted(e) ? '●' : '⊠'}</span> {describeEvent(e, labelOf)}
    </li>
  );
  if (writes.length <= WRITES_LISTED)
    return (
      <ol className="resource-log" aria-label="Writes">
        {writes.map(line)}
      </ol>
    );
  const rejected = writes.filter((e) => !accepted(e)).length;
  const shown = writes.filter((e, i) => i >= writes.length - (WRITES_LISTED - 1) || !accepted(e));
  return (
    <>
      <p className="resource-log-count">
        {writes.length} writes so far: {writes.length - rejected} accepted, {rejected} rejected.{' '}
        {rejected > 0 ? 'The rejected ones and the latest:' : 'The latest:'}
      </p>
      <ol className="resource-log" aria-label="Writes">
        {shown.map(line)}
      </ol>
      <details className="resource-log-every">
        <summary>Every write ({writes.length})</summary>
        <ol className="resource-log-all" aria-label="Every write">
          {writes.map(line)}
        </ol>
      </details>
    </>
  );
}

/**
 * What an invariant promises, unfolded in place: following a link away would lose the learner's
 * run, so the glossary itself opens in a new tab.
 */
function VerdictMeaning({ invariant, label }: { invariant: string; label: string }) {
  const entry = glossaryEntry(invariant);
  if (!entry) return null;
  return (
    <details className="verdict-meaning">
      {/* The name starts with the words on screen (WCAG 2.5.3, label in name), then says which invariant. */}
      <summary>
        What is this?<span className="visually-hidden"> What “{label}” means</span>
      </summary>
      <p>
        {entry.promise} <span className="muted">(As seen by {entry.view}.)</span>{' '}
        <a href={glossaryHref(invariant)} target="_blank" rel="noopener">
          All the invariants, side by side<span className="visually-hidden"> (opens in a new tab)</span> ↗
        </a>
      </p>
    </details>
  );
}

/** A short name for a piece of evidence, e.g. "Show Barista A's write at 17.008 s". */
function evidenceLabel(event: TraceEvent | undefined, labelOf: (id: string) => string): string {
  if (!event) return 'Show the event';
  const when = formatMs(event.at);
  switch (event.kind) {
    case 'resource.write':
      return `Show ${labelOf(event.data.from)}'s write at ${when}`;
    case 'lock.acquired':
      return `Show ${labelOf(event.actor)} taking the lock at ${when}`;
    case 'lease.granted':
      return `Show the lease for ${labelOf(event.data.owner)} at ${when}`;
    default:
      return `Show ${labelOf(event.actor)} at ${when}`;
  }
}
