import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { formatMs } from '../../sim/time';
import type { Inspection } from './inspect';
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
  const { cursor, now } = useAfterPaint(useMemo(() => ({ cursor: cursorNow, now: playheadNow }), [cursorNow, playheadNow]));
  const [shown, setShown] = useState<{ view: Inspection; playheadMs: number } | null>(null);
  useEffect(() => {
    let live = true;
    void simulator.inspect(config, cursor, now).then((outcome) => live && outcome.ok && setShown({ view: outcome.value, playheadMs: now }));
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
        <section key={node.id} className="inspector-node" aria-label={`${node.label} keyspace`}>
          <h5>
            {node.label} <span className="muted">· {node.role}{node.offset !== null ? ` · offset ${node.offset}` : ''} · {node.status}{Math.abs(node.clockMs - playheadMs) >= 1 ? ` · clock reads ${ms(node.clockMs)}` : ''}</span>
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
                    <th scope="row"><code>{k.key}</code></th>
                    <td><code>{k.type === 'string' ? k.value : `${k.type} ${k.value}`}</code></td>
                    <td className="ttl">{k.ttlMs === null ? 'no expiry' : ms(k.ttlMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
      <h5>Clients</h5>
      <ul className="inspector-clients">
        {view.clients.map((c) => (
          <li key={c.id}>
            <strong>{c.label}</strong> <span className="muted">{c.state}{c.status === 'running' ? '' : ` (${c.status})`}</span>
            {c.beliefs.length === 0 ? (
              <span> believes it holds nothing.</span>
            ) : (
              <span>
                {' '}believes it holds{' '}
                {c.beliefs.map((b, i) => (
                  <span key={b.key}>
                    {i > 0 && ', '}
                    “{b.key}”{b.token === null ? '' : ` with token ${b.token}`} since {ms(b.sinceMs)}
                  </span>
                ))}
                .
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
