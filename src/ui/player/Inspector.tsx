import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { formatMs } from '../../sim/time';
import { GROUP_FROM_CLIENTS } from '../../timeline/laneGroups';
import { keysNote } from './bigOutput';
import type { ClientView, Inspection, KeyRow } from './inspect';
import type { PlayerStore } from './playerStore';
import { useAfterPaint } from './useAfterPaint';

/**
 * What is inside the world at the playhead: every Redis node's keys (with TTLs counting down
 * in virtual time), each client's state and what it believes it holds. Computed by replaying
 * the run to the playhead (in the simulation worker), so it is exactly the world the timeline
 * shows. The request goes out after the frame that moved the playhead has painted, and while
 * the playhead moves on, only the newest request is answered.
 */
export function Inspector({ store }: { store: PlayerStore }) {
  const config = useStore(store, (s) => s.config);
  const simulator = useStore(store, (s) => s.simulator);
  const cursorNow = useStore(store, (s) => s.cursor);
  const playheadNow = useStore(store, (s) => s.playheadMs);
  const { cursor, now } = useAfterPaint(
    useMemo(() => ({ cursor: cursorNow, now: playheadNow }), [cursorNow, playheadNow]),
  );
  const [shown, setShown] = useState<{ view: Inspection; playheadMs: number } | null>(null);
  useEffect(() => {
    let live = true;
    void simulator
      .inspect(config, cursor, now)
      .then((outcome) => live && outcome.ok && setShown({ view: outcome.value, playheadMs: now }));
    return () => {
      live = false;
    };
  }, [simulator, config, cursor, now]);
  const ms = (n: number) => formatMs(Math.round(n));
  if (!shown) {
    return (
      <div className="player-panel inspector" aria-busy="true">
        <h4>Inside the world</h4>
        <p className="muted">Looking inside…</p>
      </div>
    );
  }
  const { view, playheadMs } = shown;

  return (
    <div className="player-panel inspector">
      <h4>Inside the world at {ms(playheadMs)}</h4>
      {view.nodes.map((node) => (
        // A group, not a landmark: a lesson has several players, each with a "Primary keyspace".
        <section key={node.id} className="inspector-node" role="group" aria-label={`${node.label} keyspace`}>
          <h5>
            {node.label}{' '}
            <span className="muted">
              · {node.role}
              {node.offset !== null ? ` · offset ${node.offset}` : ''} · {node.status}
              {Math.abs(node.clockMs - playheadMs) >= 1 ? ` · clock reads ${ms(node.clockMs)}` : ''}
            </span>
          </h5>
          {node.keys.length === 0 ? (
            <p className="muted">{node.status === 'crashed' ? 'Down: nothing to read.' : 'No keys.'}</p>
          ) : (
            <table className="keyspace">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Value</th>
                  <th scope="col">TTL</th>
                </tr>
              </thead>
              <tbody>
                {node.keys.map((k) => (
                  <tr key={k.key}>
                    <th scope="row">
                      <code>{k.key}</code>
                    </th>
                    <td>
                      <code>{k.type === 'string' ? k.value : `${k.type} ${k.value}`}</code>
                    </td>
                    <td className="ttl">{ttlText(k, node.role, ms)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {keysNote(node.keys.length, node.keyCount) && (
            <p className="muted">{keysNote(node.keys.length, node.keyCount)}</p>
          )}
        </section>
      ))}
      <h5>Clients</h5>
      <Clients clients={view.clients} ms={ms} />
    </div>
  );
}

/**
 * Each client's line; in a herd (as many clients as the timeline folds into one lane), only the
 * clients that hold something or are paused or crashed, a count of the others by state, and every
 * line behind a disclosure: fifty lines made the panel 2,600 px tall.
 */
/**
 * A key past its deadline is still stored (and still drawn on its lane) until it is deleted, so
 * the table lists it and says why reads already miss it.
 */
function ttlText(k: KeyRow, role: string, ms: (n: number) => string): string {
  if (k.expired)
    return role === 'replica'
      ? 'expired: reads see nothing; goes when the primary’s DEL arrives'
      : 'expired: reads see nothing; deleted at the next sweep';
  return k.ttlMs === null ? 'no expiry' : ms(k.ttlMs);
}

function Clients({ clients, ms }: { clients: ClientView[]; ms: (n: number) => string }) {
  const line = (c: ClientView) => <ClientLine key={c.id} client={c} ms={ms} />;
  if (clients.length < GROUP_FROM_CLIENTS)
    return (
      <ul className="inspector-clients" aria-label="Clients">
        {clients.map(line)}
      </ul>
    );
  const notable = clients.filter((c) => c.beliefs.length > 0 || c.status !== 'running');
  const byState = new Map<string, number>();
  for (const c of clients) if (!notable.includes(c)) byState.set(c.state, (byState.get(c.state) ?? 0) + 1);
  const rest = clients.length - notable.length;
  return (
    <>
      {notable.length > 0 && (
        <ul className="inspector-clients" aria-label="Clients that believe they hold a lock or are not running">
          {notable.map(line)}
        </ul>
      )}
      {rest > 0 && (
        <p>
          {notable.length > 0 ? `The other ${rest}` : `All ${rest}`} (
          {[...byState].map(([state, n]) => `${n} ${state}`).join(', ')}) believe they hold nothing.
        </p>
      )}
      <details className="inspector-every-client">
        <summary>Every client ({clients.length})</summary>
        <ul className="inspector-clients" aria-label="Every client">
          {clients.map(line)}
        </ul>
      </details>
    </>
  );
}

function ClientLine({ client: c, ms }: { client: ClientView; ms: (n: number) => string }) {
  return (
    <li>
      <strong>{c.label}</strong>{' '}
      <span className="muted">
        {c.state}
        {c.status === 'running' || c.status === c.state ? '' : ` (${c.status})`}
      </span>
      {c.beliefs.length === 0 ? (
        <span> believes it holds nothing.</span>
      ) : (
        <span>
          {' '}
          believes it holds{' '}
          {c.beliefs.map((b, i) => (
            <span key={b.key}>
              {i > 0 && ', '}“{b.key}”{b.token === null ? '' : ` with token ${b.token}`} since {ms(b.sinceMs)}
            </span>
          ))}
          .
        </span>
      )}
    </li>
  );
}
