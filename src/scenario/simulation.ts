import { checkSingleWriter } from '../check/singleWriter';
import type { Verdict } from '../check/verdict';
import { actorInfos, World, type ProcessAction } from '../actors/world';
import type { ScriptEngine } from '../redis/scriptEngine';
import { Sim } from '../sim/sim';
import { formatMs } from '../sim/time';
import { toAction, worldSpec } from './build';
import type { Scenario } from './schema';

/** A learner's action: what they did, and when (SimTimeMs). */
export type LearnerAction = ProcessAction & { at: number };

/** A run is (scenario, seed, learner actions): the same three always give the same trace. */
export interface RunOptions {
  seed?: number;
  /** Overrides the resource's fencing switch (the learner's "fencing on" toggle). */
  fencing?: boolean;
  actions?: readonly LearnerAction[];
  /** Stops a runaway scenario: at most this many trace events. */
  maxEvents?: number;
}

export const DEFAULT_MAX_EVENTS = 200_000;

/**
 * One deterministic run of a scenario, advanced a kernel step at a time. The UI steps it;
 * the CLI and tests run it to the end.
 */
export class Simulation {
  readonly sim: Sim;
  readonly world: World;
  readonly seed: number;
  private endReason: 'idle' | 'time-cap' | 'event-cap' | null = null;
  private readonly maxEvents: number;

  constructor(
    readonly scenario: Scenario,
    options: RunOptions = {},
    scripts?: ScriptEngine,
  ) {
    this.seed = options.seed ?? scenario.seed;
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.sim = new Sim(this.seed);
    const spec = worldSpec(scenario, options.fencing === undefined ? {} : { fencing: options.fencing });
    this.sim.record('run.start', 'world', { scenario: scenario.id, seed: this.seed, actors: actorInfos(spec) });
    // Steps are scheduled before the actors start, so at equal times a step comes first.
    for (const step of scenario.script) this.at(step.at, toAction(step), 'script');
    for (const { at, ...action } of options.actions ?? []) this.at(at, action, 'learner');
    this.world = new World(this.sim, spec, scripts);
  }

  get finished(): boolean {
    return this.endReason !== null;
  }

  /** Advances one kernel step. Returns false once the run has ended. */
  step(): boolean {
    if (this.endReason) return false;
    const next = this.sim.kernel.nextAt();
    if (next === undefined) return this.end('idle');
    if (next > this.scenario.horizon) return this.end('time-cap');
    if (this.sim.trace.length >= this.maxEvents) return this.end('event-cap');
    this.sim.kernel.step();
    return true;
  }

  /** Runs until the end (nothing left to do, or a cap). */
  run(): this {
    while (this.step());
    return this;
  }

  /** Every checker's verdict over the trace so far. */
  verdicts(): Verdict[] {
    const verdicts = [checkSingleWriter(this.sim.trace)];
    if (this.endReason === 'event-cap') {
      verdicts.push({
        invariant: 'run-completes',
        holds: false,
        atMs: this.sim.now,
        eventIds: [this.sim.trace.length - 1],
        explanation: `The run was stopped after ${this.maxEvents} events at ${formatMs(this.sim.now)}: it looks like a runaway loop.`,
        violations: 1,
      });
    }
    return verdicts;
  }

  private at(atMs: number, action: ProcessAction, source: 'script' | 'learner'): void {
    this.sim.kernel.schedule(atMs, null, 'system', () => {
      this.sim.record('action.apply', action.target, { action: action.do, source, detail: describe(action) });
      this.world.apply(action);
    });
  }

  private end(reason: 'idle' | 'time-cap' | 'event-cap'): false {
    this.endReason = reason;
    this.sim.record('run.end', 'world', { reason });
    return false;
  }
}

function describe(action: ProcessAction): string {
  switch (action.do) {
    case 'pause':
      return action.forMs === undefined ? `pause ${action.target}` : `pause ${action.target} for ${formatMs(action.forMs)}`;
    case 'clock-jump':
      return `jump ${action.target}'s clock by ${formatMs(action.byMs)}`;
    default:
      return `${action.do} ${action.target}`;
  }
}
