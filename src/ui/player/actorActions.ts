import type { UntimedAction } from '../../actors/action';
import type { Scenario } from '../../scenario/schema/schema';
import type { ActorInfo, TraceEvent } from '../../sim/traceEvents';
import type { ProcessStatus } from '../../actors/process/processStatus';

/** One thing a learner can do to an actor right now, as a button shows it. */
export interface ActorCommand {
  /** Stable id for keys and tests: 'pause', 'crash', 'failover'... */
  id: string;
  /** The button's text, naming the actor so each button's accessible name is unique. */
  label: string;
  action: UntimedAction;
  enabled: boolean;
}

/** Knobs the learner set once for every actor: how long a pause lasts, how far a clock jumps. */
export interface ActionSettings {
  pauseMs: number;
  clockJumpMs: number;
}

/**
 * What the scenario lets a learner do: its `controls`, and the actors a failover or a power
 * loss can act on. Only Redis nodes lose power (a lock service's lane looks like a Redis lane,
 * but it is not one), and only a primary with replicas, or a node Sentinel watches, can be
 * failed over: anywhere else the button would do nothing.
 */
export interface FaultScope {
  controls: readonly string[];
  failover: ReadonlySet<string>;
  powerLoss: ReadonlySet<string>;
  /** Nodes that start as replicas (until the trace says otherwise). */
  replicas: ReadonlySet<string>;
}

export function faultScope(scenario: Pick<Scenario, 'controls' | 'redis'>): FaultScope {
  const nodes = scenario.redis.nodes;
  const primariesWithReplicas = new Set(nodes.flatMap((n) => (n.replicaOf === undefined ? [] : [n.replicaOf])));
  // Under Sentinel any node of a watched group can become primary; failing one over fails over the group.
  const watched = scenario.redis.sentinels
    ? nodes.filter(
        (n) => primariesWithReplicas.has(n.id) || (n.replicaOf !== undefined && primariesWithReplicas.has(n.replicaOf)),
      )
    : [];
  return {
    controls: scenario.controls,
    failover: new Set([...primariesWithReplicas, ...watched.map((n) => n.id)]),
    powerLoss: new Set(nodes.map((n) => n.id)),
    replicas: new Set(nodes.filter((n) => n.replicaOf !== undefined || n.role === 'replica').map((n) => n.id)),
  };
}

/**
 * The fault buttons for one actor, given what the scenario allows (`scope`) and the actor's
 * status at the playhead. A button is listed when its control is allowed and enabled when it
 * makes sense now (you cannot resume what is not paused).
 */
export function actorCommands(
  actor: ActorInfo,
  status: ProcessStatus,
  scope: FaultScope,
  settings: ActionSettings,
  role: string | null,
): ActorCommand[] {
  const allowed = (name: string) => scope.controls.includes(name);
  const name = actor.label;
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  const out: ActorCommand[] = [];
  if (allowed('pause'))
    out.push({
      id: 'pause',
      label: `Pause ${name} for ${seconds(settings.pauseMs)}`,
      action: { do: 'pause', target: actor.id, forMs: settings.pauseMs },
      enabled: status === 'running',
    });
  if (allowed('resume'))
    out.push({
      id: 'resume',
      label: `Resume ${name}`,
      action: { do: 'resume', target: actor.id },
      enabled: status === 'paused',
    });
  if (allowed('crash'))
    out.push({
      id: 'crash',
      label: `Crash ${name}`,
      action: { do: 'crash', target: actor.id },
      enabled: status !== 'crashed',
    });
  if (allowed('restart'))
    out.push({
      id: 'restart',
      label: `Restart ${name}`,
      action: { do: 'restart', target: actor.id },
      enabled: status === 'crashed',
    });
  if (allowed('clock-jump')) {
    const sign = settings.clockJumpMs >= 0 ? '+' : '−';
    out.push({
      id: 'clock-jump',
      label: `Jump ${name}'s clock ${sign}${seconds(Math.abs(settings.clockJumpMs))}`,
      action: { do: 'clock-jump', target: actor.id, byMs: settings.clockJumpMs },
      enabled: status !== 'crashed' && settings.clockJumpMs !== 0,
    });
  }
  // Failover (Sentinel's SENTINEL FAILOVER, or a hand failover) is offered on a primary only.
  const replica = role === null ? scope.replicas.has(actor.id) : role === 'replica';
  if (allowed('failover') && scope.failover.has(actor.id) && !replica) {
    out.push({
      id: 'failover',
      label: `Fail over ${name}`,
      action: { do: 'failover', target: actor.id },
      enabled: status !== 'paused',
    });
  }
  if (allowed('power-loss') && scope.powerLoss.has(actor.id)) {
    out.push({
      id: 'power-loss',
      label: `Cut ${name}'s power`,
      action: { do: 'power-loss', target: actor.id },
      enabled: status !== 'crashed',
    });
  }
  return out;
}

/** A partition the learner can ask for: cut `target` off from everyone else, or from one actor. */
export function partitionAction(
  actors: readonly ActorInfo[],
  target: string,
  from: string | 'everyone',
  oneWay: boolean,
): UntimedAction {
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
