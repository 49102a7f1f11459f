import { useState } from 'react';
import type { UntimedAction } from '../../actors/action';
import type { ActorInfo } from '../../sim/traceEvents';

/**
 * Slows one directed link from the playhead on: every message from one actor to another sent
 * after that takes the chosen time (the scenario's `network` step with a fixed latency). Shown
 * when a scenario offers the `network` control, for runs about late messages: a write that
 * leaves in good time and lands after the lease is gone.
 */
export function LinkDelayControls({ actors, act }: { actors: ActorInfo[]; act: (action: UntimedAction) => void }) {
  const [from, setFrom] = useState(actors[0]?.id ?? '');
  const [to, setTo] = useState(actors[actors.length - 1]?.id ?? '');
  const [seconds, setSeconds] = useState(10);
  const labelOf = (id: string) => actors.find((a) => a.id === id)?.label ?? id;
  // Each select names itself: a label wrapping a select would also count the options' text.
  const choose = (name: string, value: string, set: (id: string) => void) => (
    <select aria-label={name} value={value} onChange={(e) => set(e.target.value)}>
      {actors.map((a) => (
        <option key={a.id} value={a.id}>
          {a.label}
        </option>
      ))}
    </select>
  );
  return (
    <div className="network-row">
      <label className="player-field">
        Slow the link from
        {choose('Slow the link from', from, setFrom)}
      </label>
      <label className="player-field">
        to
        {choose('Slow the link to', to, setTo)}
      </label>
      <label className="player-field">
        Delay (s)
        <input
          type="number"
          min={0}
          max={120}
          step={0.5}
          value={seconds}
          onChange={(e) => setSeconds(Math.min(120, Math.max(0, Number(e.target.value) || 0)))}
        />
      </label>
      <button
        type="button"
        disabled={from === to}
        onClick={() => act({ do: 'network', from, to, latency: { dist: 'fixed', ms: Math.round(seconds * 1000) } })}
      >
        Delay {labelOf(from)} → {labelOf(to)} by {seconds} s
      </button>
    </div>
  );
}
