import { useStore } from 'zustand';
import { describeEvent } from '../../timeline/describeEvent';
import { formatMs } from '../../sim/time';
import type { PlayerStore } from './playerStore';

/**
 * What the checkers say, revealed only once the playhead reaches the moment it happened, and
 * the resource's log of accepted and rejected writes so far.
 */
export function VerdictPanel({ store }: { store: PlayerStore }) {
  const verdicts = useStore(store, (s) => s.verdicts);
  const events = useStore(store, (s) => s.events);
  const cursor = useStore(store, (s) => s.cursor);
  const playheadMs = useStore(store, (s) => s.playheadMs);
  const finished = cursor >= events.length - 1;
  const writes = events.slice(0, cursor + 1).filter((e) => e.kind === 'resource.write');
  const first = events[0];
  const labels = new Map(first?.kind === 'run.start' ? first.data.actors.map((a) => [a.id, a.label]) : []);
  const labelOf = (id: string) => labels.get(id) ?? id;

  return (
    <div className="player-panel" aria-live="polite">
      <h4>What happened</h4>
      <ul className="verdicts">
        {verdicts.map((v) => {
          const broken = !v.holds && v.atMs !== null && v.atMs <= playheadMs;
          const label = v.invariant.replace(/-/g, ' ');
          return (
            <li key={v.invariant} className={broken ? 'verdict verdict-broken' : 'verdict verdict-ok'}>
              <span className="verdict-icon" aria-hidden="true">{broken ? '✕' : finished ? '✓' : '…'}</span>
              <div>
                <strong>
                  {broken ? `Broken: ${label}` : finished ? `Held: ${label}` : `So far so good: ${label}`}
                </strong>
                {broken ? (
                  <>
                    <p>
                      At {formatMs(v.atMs!)}: {v.explanation}
                    </p>
                    <p className="verdict-evidence">
                      {v.eventIds.map((id, i) => (
                        <button key={id} type="button" className="link" onClick={() => store.getState().select(id)}>
                          {i === 0 ? 'Show the first write' : 'Show the second write'}
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
      {writes.length === 0 ? (
        <p className="muted">No writes yet.</p>
      ) : (
        <ol className="resource-log">
          {writes.map((e) => (
            <li key={e.id} className={e.kind === 'resource.write' && e.data.accepted ? 'write-accepted' : 'write-rejected'}>
              <span aria-hidden="true">{e.kind === 'resource.write' && e.data.accepted ? '●' : '⊠'}</span>{' '}
              {describeEvent(e, labelOf)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
