import { statusOf } from '../../actors/process/processStatus';
import { unixOfLocal } from '../../actors/process/unixClock';
import { simTime, type LocalClockMs } from '../../sim/time';
import { beliefsOf, heldAfter } from '../../check/beliefs';
import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Scenario } from '../../scenario/schema/schema';
import { Simulation } from '../../scenario/running/simulation';
import type { TraceEvent } from '../../sim/traceEvents';
import { clipText, KEYS_SHOWN } from './bigOutput';
import type { RunConfig } from './runModel';

/** One key as the inspector lists it. */
export interface KeyRow {
  key: string;
  type: string;
  value: string;
  /** Milliseconds left on the node's own clock at the playhead, or null for no expiry. */
  ttlMs: number | null;
  /**
   * Past its deadline but still stored: every command already answers as if it were gone, and
   * the node deletes it at its next active-expiry cycle (a replica: when its primary's DEL
   * arrives). The lane's lease bar runs until that deletion, so the key is listed until then.
   */
  expired: boolean;
}

/** A Redis node at the playhead. */
export interface NodeView {
  id: string;
  label: string;
  status: 'running' | 'paused' | 'crashed';
  role: string;
  /** Replication offset, when the node replicates. */
  offset: number | null;
  /** What the node's clock says, relative to the run's start (differs from true time after a jump). */
  clockMs: LocalClockMs;
  /** The first `KEYS_SHOWN` stored keys by name (bigOutput.ts; expired ones until deleted), values cut to `CHARS_SHOWN`. */
  keys: KeyRow[];
  /** How many keys the node stores in all. */
  keyCount: number;
}

/** A client at the playhead: its machine state and what it believes. */
export interface ClientView {
  id: string;
  label: string;
  state: string;
  status: 'running' | 'paused' | 'crashed';
  /** Locks it believes it holds, with the fencing token it got and when it took them. */
  beliefs: { key: string; token: number | null; sinceMs: number; ttlMs: number | null }[];
  /** What the client's own clock says (drift and jumps included). */
  clockMs: LocalClockMs;
}

export interface Inspection {
  nodes: NodeView[];
  clients: ClientView[];
}

/** Duck type for the replicated node's `info()` (present once the topology is in the world). */
interface InfoSource {
  info?: () => { role: string; offset: number };
}

/**
 * Looks inside the world at any point of a run by replaying the simulation to that point:
 * the run is deterministic, so the replay is exactly the world the trace came from. Moving
 * forward continues the same replay; moving back starts a fresh one (runs are small).
 */
export class RunInspector {
  private simulation: Simulation;

  constructor(
    private readonly scenario: Scenario,
    private readonly config: RunConfig,
    private readonly scripts: ScriptEngine,
    /** Called as a replay moves on (see RunOptions.onProgress). */
    private readonly onProgress?: () => void,
  ) {
    this.simulation = this.fresh();
  }

  /** The run exactly as the worker computed it (`computeRun`): the learner's story edits included, or the panel shows the lesson's run. */
  private fresh(): Simulation {
    return new Simulation(this.scenario, { ...this.config, onProgress: this.onProgress }, this.scripts);
  }

  /** The world after event `cursor`, with TTLs and clocks read at `playheadMs`. */
  at(events: readonly TraceEvent[], cursor: number, playheadMs: number): Inspection {
    if (this.simulation.sim.trace.length > cursor + 1) this.simulation = this.fresh();
    while (this.simulation.sim.trace.length <= cursor && this.simulation.step());
    const world = this.simulation.world;
    // Between events the world does not change, but clocks (and so TTLs) keep running: each
    // clock is read at the playhead, at its own rate.
    const playhead = simTime(Math.max(playheadMs, this.simulation.sim.now));
    const nodes = world.nodes.map((node): NodeView => {
      const info = (node as unknown as InfoSource).info?.();
      const nowUnixMs = unixOfLocal(node.process.localAt(playhead));
      const keys = node.process.crashed
        ? []
        : node.server.entries(true).map((k): KeyRow => {
            const ttlMs = k.expiresAtMs === null ? null : Math.max(0, k.expiresAtMs - nowUnixMs);
            // Redis's own test (keyIsExpired): expired once the clock is past the deadline, not at it.
            return {
              key: k.key,
              type: k.type,
              value: k.value,
              ttlMs,
              expired: k.expiresAtMs !== null && nowUnixMs > k.expiresAtMs,
            };
          });
      return {
        id: node.id,
        label: world.actors.find((a) => a.id === node.id)?.label ?? node.id,
        status: statusOf(node.process),
        role: info?.role ?? 'primary',
        offset: info ? info.offset : null,
        clockMs: node.process.localAt(playhead),
        // Cut here, in the worker: only what the panel draws crosses to the page.
        keys: keys.slice(0, KEYS_SHOWN).map((k) => ({ ...k, value: clipText(k.value) })),
        keyCount: keys.length,
      };
    });
    const beliefs = beliefsOf(events);
    const clients = world.clients.map((client): ClientView => {
      const id = client.process.id;
      return {
        id,
        label: world.actors.find((a) => a.id === id)?.label ?? id,
        state: stateOf(events, cursor, id),
        status: statusOf(client.process),
        beliefs: heldAfter(beliefs, cursor, id).map((b) => ({
          key: b.key,
          token: b.token,
          sinceMs: b.startMs,
          ttlMs: b.ttlMs,
        })),
        clockMs: client.process.localAt(playhead),
      };
    });
    return { nodes, clients };
  }
}

/** The last machine state an actor entered by `cursor`. */
function stateOf(events: readonly TraceEvent[], cursor: number, actor: string): string {
  for (let i = Math.min(cursor, events.length - 1); i >= 0; i--) {
    const e = events[i]!;
    if (e.actor === actor && e.kind === 'actor.state') return e.data.state;
  }
  return 'starting';
}
