import type { ProcessAction } from '../../actors/world';
import type { ActorInfo, TraceEvent } from '../../sim/traceEvents';
import type { ProcessStatus } from './processStates';

/** One thing a learner can do to an actor right now, as a button shows it. */
export interface ActorCommand {
  /** Stable id for keys and tests: 'pause', 'crash', 'failover'... */
  id: string;
  /** The button's text, naming the actor so each button's accessible name is unique. */
  label: string;
  action: ProcessAction;
  enabled: boolean;
}

/** Knobs the learner set once for every actor: how long a pause lasts, how far a clock jumps. */
export interface ActionSettings {
  pauseMs: number;
  clockJumpMs: number;
}

/**
 * The fault buttons for one actor, given what the scenario allows (`controls`) and the actor's
 * status at the playhead. A button is listed when its control is allowed and enabled when it
 * makes sense now (you cannot resume what is not paused).
 */
export function actorCommands(actor: ActorInfo, status: ProcessStatus, controls: readonly string[], settings: ActionSettings, role: string | null): ActorCommand[] {
  const allowed = (name: string) => controls.includes(name);
  const name = actor.label;
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  const out: ActorCommand[] = [];
  if (allowed('pause')) out.push({ id: 'pause', label: `Pause ${name} for ${seconds(settings.pauseMs)}`, action: { do: 'pause', target: actor.id, forMs: settings.pauseMs }, enabled: status === 'running' });
  if (allowed('resume')) out.push({ id: 'resume', label: `Resume ${name}`, action: { do: 'resume', target: actor.id }, enabled: status === 'paused' });
  if (allowed('crash')) out.push({ id: 'crash', label: `Crash ${name}`, action: { do: 'crash', target: actor.id }, enabled: status !== 'crashed' });
  if (allowed('restart')) out.push({ id: 'restart', label: `Restart ${name}`, action: { do: 'restart', target: actor.id }, enabled: status === 'crashed' });
  if (allowed('clock-jump')) {
    const sign = settings.clockJumpMs >= 0 ? '+' : '−';
    out.push({ id: 'clock-jump', label: `Jump ${name}'s clock ${sign}${seconds(Math.abs(settings.clockJumpMs))}`, action: { do: 'clock-jump', target: actor.id, byMs: settings.clockJumpMs }, enabled: status !== 'crashed' && settings.clockJumpMs !== 0 });
  }
  // Failover (Sentinel's SENTINEL FAILOVER, or a hand failover) is offered on a primary only.
  if (allowed('failover') && actor.role === 'redis' && (role === null || role === 'primary' || role === 'master')) {
    out.push({ id: 'failover', label: `Fail over ${name}`, action: { do: 'failover', target: actor.id }, enabled: status !== 'paused' });
  }
  if (allowed('power-loss') && actor.role === 'redis') {
    out.push({ id: 'power-loss', label: `Cut ${name}'s power`, action: { do: 'power-loss', target: actor.id }, enabled: status !== 'crashed' });
  }
  return out;
}

/** A partition the learner can ask for: cut `target` off from everyone else, or from one actor. */
export function partitionAction(actors: readonly ActorInfo[], target: string, from: string | 'everyone', oneWay: boolean): ProcessAction {
  const others = from === 'everyone' ? actors.filter((a) => a.id !== target).map((a) => a.id) : [from];
  return { do: 'partition', groups: [[target], others], oneWay };
}

/** Whether some partition is in force after the first `cursor + 1` events. */
export function partitionedAt(events: readonly TraceEvent[], cursor: number): boolean {
  let cut = false;
  for (let i = 0; i <= cursor && i < events.length; i++) {
    const e = events[i]!;
    if (e.kind === 'net.partition') cut = true;
    else if (e.kind === 'net.heal') cut = false;
  }
  return cut;
}
