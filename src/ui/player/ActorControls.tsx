import { useId, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { formatMs } from '../../sim/time';
import type { ActorInfo } from '../../sim/traceEvents';
import { actorCommands, faultScope, partitionAction, partitionedAt } from './actorActions';
import { actorStatusKey } from './actorStatus';
import { LinkDelayControls } from './LinkDelayControls';
import type { PlayerStore } from './playerStore';
import { processStatusesAt } from '../../actors/process/processStatus';
import { GROUP_FROM_CLIENTS } from '../../timeline/laneGroups';
import { rolesAt } from './roles';

/**
 * From this many actors with buttons (a herd, whose clients the timeline folds into one lane),
 * the panel shows one actor's buttons at a time, picked from a list: fifty rows of buttons made
 * lesson 13's player 8,000 px tall, with its dashboard beyond them.
 */
const PICK_FROM_ACTORS = GROUP_FROM_CLIENTS;

/**
 * From this many rows of buttons the panel takes the whole width of the player, above the others,
 * with its rows side by side: stacked in one column, Redlock's eight actors made a panel of
 * 1,700 px beside two short ones.
 */
const WIDE_FROM_ROWS = 5;

/** The actors of the current run, in lane order. */
export function useActors(store: PlayerStore): ActorInfo[] {
  const first = useStore(store, (s) => s.events[0]);
  return first?.kind === 'run.start' ? first.data.actors : [];
}

/**
 * The learner's fault buttons: the shared knobs (pause length, clock jump), the network (partition
 * from…, heal), and one row per actor (in a herd, the row of the actor picked from a list), each
 * button offered only when the scenario's `controls` allow it. An action happens at the
 * playhead's time; the run is recomputed.
 */
export function ActorControls({ store }: { store: PlayerStore }) {
  const scenario = useStore(store, (s) => s.scenario);
  const controls = scenario.controls;
  const scope = useMemo(() => faultScope(scenario), [scenario]);
  const events = useStore(store, (s) => s.events);
  // Re-render when a button can change (some status, role or the partition did), not per step.
  const statusKey = useStore(store, (s) => actorStatusKey(s.events, s.cursor));
  const actionCount = useStore(store, (s) => s.config.actions.length);
  const settings = useStore(store, (s) => s.settings);
  const actors = useActors(store);
  const [picked, setPicked] = useState('');
  // The panel is a group named by its heading, so that a screen reader can jump to it.
  const heading = useId();
  const { states, roles, partitioned } = useMemo(() => {
    const { events: now, cursor } = store.getState();
    return {
      states: processStatusesAt(now, cursor),
      roles: rolesAt(now, cursor),
      partitioned: partitionedAt(now, cursor),
    };
    // statusKey stands for exactly what is read here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, events, statusKey]);
  const { act, setSettings } = store.getState();
  const has = (name: string) => (controls as readonly string[]).includes(name);
  const perActor = actors.map((actor) => ({
    actor,
    commands: actorCommands(actor, states.get(actor.id) ?? 'running', scope, settings, roles.get(actor.id) ?? null),
  }));
  const network = has('partition') || has('heal') || has('network');
  const offered = perActor.filter((a) => a.commands.length > 0);
  if (!network && offered.length === 0) return null;
  const statusOf = (id: string) => `${states.get(id) ?? 'running'}${roles.get(id) ? `, ${roles.get(id)}` : ''}`;
  const pick = offered.length >= PICK_FROM_ACTORS ? (offered.find((a) => a.actor.id === picked) ?? offered[0]!) : null;
  const rows = pick ? [pick] : offered;

  return (
    <div
      className={`player-panel actor-controls-panel${rows.length >= WIDE_FROM_ROWS ? ' actor-controls-wide' : ''}`}
      role="group"
      aria-labelledby={heading}
    >
      <h4 id={heading}>
        Break things at <PlayheadTime store={store} />
      </h4>
      <div className="player-knobs">
        {has('pause') && (
          <label className="player-field">
            Pause length (s)
            <input
              type="number"
              min={0.1}
              max={120}
              step={0.1}
              value={settings.pauseMs / 1000}
              onChange={(e) =>
                setSettings({ pauseMs: Math.max(100, Math.round((Number(e.target.value) || 0.1) * 1000)) })
              }
            />
          </label>
        )}
        {has('clock-jump') && (
          <label className="player-field">
            Clock jump (s)
            <input
              type="number"
              min={-120}
              max={120}
              step={0.5}
              value={settings.clockJumpMs / 1000}
              onChange={(e) => setSettings({ clockJumpMs: Math.round((Number(e.target.value) || 0) * 1000) })}
            />
          </label>
        )}
      </div>
      {network && <NetworkControls store={store} actors={actors} partitioned={partitioned} />}
      {pick && (
        <label className="player-field actor-pick">
          Buttons for one of {offered.length} actors:
          <select value={pick.actor.id} onChange={(e) => setPicked(e.target.value)}>
            {offered.map(({ actor }) => (
              <option key={actor.id} value={actor.id}>
                {actor.label} ({statusOf(actor.id)})
              </option>
            ))}
          </select>
        </label>
      )}
      <ul className="actor-controls" aria-label="Actors">
        {rows.map(({ actor, commands }) => (
          <li key={actor.id}>
            <span className="actor-name">
              {actor.label} <span className="muted">({statusOf(actor.id)})</span>
            </span>
            {commands.map((c) => (
              <button key={c.id} type="button" disabled={!c.enabled} onClick={() => act(c.action)}>
                {c.label}
              </button>
            ))}
          </li>
        ))}
      </ul>
      {actionCount > 0 && (
        <p className="muted">
          You changed this run {actionCount} time{actionCount === 1 ? '' : 's'}.{' '}
          <button type="button" className="link" onClick={store.getState().clearActions}>
            Undo my changes
          </button>
        </p>
      )}
    </div>
  );
}

/** The playhead's time as text (its own component, so only this text changes per step). */
function PlayheadTime({ store }: { store: PlayerStore }) {
  const playheadMs = useStore(store, (s) => s.playheadMs);
  return <>{formatMs(Math.round(playheadMs))}</>;
}

/** Partition one actor from everyone else (or from one actor), and heal. */
function NetworkControls({
  store,
  actors,
  partitioned,
}: {
  store: PlayerStore;
  actors: ActorInfo[];
  partitioned: boolean;
}) {
  const controls = useStore(store, (s) => s.scenario.controls) as readonly string[];
  const [target, setTarget] = useState(actors[0]?.id ?? '');
  const [from, setFrom] = useState<string>('everyone');
  const [oneWay, setOneWay] = useState(false);
  const act = store.getState().act;
  const labelOf = (id: string) => actors.find((a) => a.id === id)?.label ?? id;
  return (
    <fieldset className="network-controls">
      <legend>
        Network{' '}
        {partitioned ? <span className="badge badge-warn">partitioned</span> : <span className="badge">connected</span>}
      </legend>
      {controls.includes('partition') && (
        <div className="network-row">
          <label className="player-field">
            Cut off
            <select value={target} onChange={(e) => setTarget(e.target.value)}>
              {actors.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
          <label className="player-field">
            from
            <select value={from} onChange={(e) => setFrom(e.target.value)}>
              <option value="everyone">everyone else</option>
              {actors
                .filter((a) => a.id !== target)
                .map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.label}
                  </option>
                ))}
            </select>
          </label>
          <label className="player-switch">
            <input type="checkbox" checked={oneWay} onChange={(e) => setOneWay(e.target.checked)} />
            one way
          </label>
          <button
            type="button"
            onClick={() => act(partitionAction(actors, target, from === target ? 'everyone' : from, oneWay))}
          >
            Partition {labelOf(target)} from {from === 'everyone' || from === target ? 'everyone' : labelOf(from)}
          </button>
        </div>
      )}
      {controls.includes('heal') && (
        <button type="button" disabled={!partitioned} onClick={() => act({ do: 'heal' })}>
          Heal the network
        </button>
      )}
      {controls.includes('network') && <LinkDelayControls actors={actors} act={act} />}
    </fieldset>
  );
}
