import {
  CHECKED_KINDS,
  kindsRead,
  runCheckers,
  type CheckOptions,
  type InvariantName,
  type RunCap,
} from '../../check/invariants';
import type { Verdict } from '../../check/verdict';
import type { Action, UntimedAction } from '../../actors/action';
import { actorInfos, World, type WorldSpec } from '../../actors/world';
import { REDLOCK } from '../../actors/recipes/redlock';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { Sim } from '../../sim/sim';
import type { TraceEvent } from '../../sim/traceEvents';
import { describeAction } from '../text/describeAction';
import { worldSpec } from './build';
import { initialActions, toAction } from '../schema/scriptActions';
import type { Scenario } from '../schema/schema';
import { editScenario, type StoryEdit } from './storyEdits';

/**
 * What identifies a run of a scenario: the same scenario and config always give the same trace
 * (the player's runs, share links and the explorer's schedules are all one of these).
 */
export interface RunConfig {
  seed: number;
  /** The resource's fencing switch (the learner's "fencing on" toggle). */
  fencing: boolean;
  /** The learner's actions (or the explorer's faults), each at its moment. */
  actions: readonly Action[];
  /** The learner's changes to the scenario's own script (its faults moved, stretched, removed), applied before the run. */
  edits?: readonly StoryEdit[];
}

/** A run is (scenario, seed, learner actions): the same three always give the same trace. Absent: the scenario's own. */
export interface RunOptions extends Partial<RunConfig> {
  /** Stops a runaway scenario: at most this many trace events. */
  maxEvents?: number;
  /** Stops a run whose Lua scripts, all together, run more than this many VM instructions. */
  maxScriptInstructions?: number;
  /**
   * Called every PROGRESS_STEPS steps, so that the page's watchdog (ui/worker/jobQueue.ts) hears
   * from the worker that a long run is moving on and stops only one whose single step does not
   * end. Nothing in the run depends on it.
   */
  onProgress?: () => void;
}

/** How many steps a run takes between two calls of `onProgress`. */
export const PROGRESS_STEPS = 1024;

export const DEFAULT_MAX_EVENTS = 200_000;
/**
 * Three scripts cut by the per-script budget (20 million instructions each, a few hundred
 * milliseconds of WebAssembly apiece) and the run is over: a client retrying a runaway script
 * every millisecond would otherwise compute for minutes, while every lock script in the lessons
 * needs a few hundred instructions. Counted in instructions, not time, so Node and the browser
 * stop the same run at the same event.
 */
export const DEFAULT_MAX_SCRIPT_INSTRUCTIONS = 60_000_000;

export type EndReason = 'idle' | 'time-cap' | 'event-cap' | 'script-cap';

/**
 * One deterministic run of a scenario, advanced a kernel step at a time. The UI steps it;
 * the CLI and tests run it to the end.
 */
export class Simulation {
  readonly sim: Sim;
  readonly world: World;
  readonly seed: number;
  readonly spec: WorldSpec;
  private endReason: EndReason | null = null;
  private readonly maxEvents: number;
  private readonly maxScriptInstructions: number;
  /** Lua VM instructions run by every script so far (to the engine's counting granularity). */
  private scriptInstructions = 0;
  /** Steps taken so far (kernel steps, plus one for noting the end): the position time travel counts in. */
  steps = 0;

  constructor(
    readonly scenario: Scenario,
    readonly options: RunOptions = {},
    readonly scripts?: ScriptEngine,
  ) {
    this.seed = options.seed ?? scenario.seed;
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.maxScriptInstructions = options.maxScriptInstructions ?? DEFAULT_MAX_SCRIPT_INSTRUCTIONS;
    this.sim = new Sim(this.seed);
    // The learner's story edits change the script and the clients' timings: the world is built from the edited scenario.
    const story = editScenario(scenario, options.edits ?? []);
    this.spec = worldSpec(story, options.fencing === undefined ? {} : { fencing: options.fencing });
    this.sim.record('run.start', 'world', { scenario: scenario.id, seed: this.seed, actors: actorInfos(this.spec) });
    // Steps are scheduled before the actors start, so at equal times a step comes first.
    for (const action of initialActions(story)) this.at(0, action, 'script');
    for (const step of story.script) this.at(step.at, toAction(step), 'script');
    for (const { at, ...action } of options.actions ?? []) this.at(at, action as UntimedAction, 'learner');
    this.world = new World(this.sim, this.spec, scripts && metered(scripts, (n) => (this.scriptInstructions += n)));
  }

  get finished(): boolean {
    return this.endReason !== null;
  }

  /** Why the run stopped, or null while it is still going. */
  get ended(): EndReason | null {
    return this.endReason;
  }

  /** Advances one kernel step. Returns false once the run has ended. */
  step(): boolean {
    if (this.endReason) return false;
    const next = this.sim.kernel.nextAt();
    if (next === undefined) return this.end('idle');
    if (next > this.scenario.horizon) return this.end('time-cap');
    if (this.sim.trace.length >= this.maxEvents) return this.end('event-cap');
    if (this.scriptInstructions >= this.maxScriptInstructions) return this.end('script-cap');
    this.sim.kernel.step();
    this.steps++;
    if (this.steps % PROGRESS_STEPS === 0) this.options.onProgress?.();
    return true;
  }

  /** Runs until the end (nothing left to do, or a cap). */
  run(): this {
    while (this.step());
    return this;
  }

  /**
   * Every applicable checker's verdict over the trace so far. The checkers are given only the
   * kinds of event they read, unless `events` says otherwise (tests pass the whole trace to
   * show it makes no difference).
   */
  verdicts(events: readonly TraceEvent[] = this.sim.trace.ofKinds(CHECKED_KINDS)): Verdict[] {
    return runCheckers(events, this.checkOptions());
  }

  /**
   * The verdict on `invariant` alone, as verdicts() gives it (null where it does not apply):
   * the explorer hunts one invariant, and judging the others too was a good part of what each
   * of its runs allocated.
   */
  verdictOn(invariant: InvariantName): Verdict | null {
    return (
      runCheckers(this.sim.trace.ofKinds(kindsRead(invariant)), { ...this.checkOptions(), only: invariant })[0] ?? null
    );
  }

  private checkOptions(): CheckOptions<InvariantName> {
    return {
      quorumOf: quorumByKey(this.spec),
      progressWithinMs: this.scenario.checks.progressWithin,
      resourceKind: this.spec.resource.kind,
      expected: this.scenario.expect.map((e) => e.invariant),
      maxWaitMs: this.scenario.checks.maxWait ?? null,
      downAttemptsPerSecond: this.scenario.checks.downAttemptsPerSecond ?? null,
      cap: this.cap(),
    };
  }

  /** The cap that stopped the run, for run-completes (null while it runs, or once it ended by itself). */
  private cap(): RunCap | null {
    const reason = this.endReason;
    if (reason !== 'event-cap' && reason !== 'time-cap' && reason !== 'script-cap') return null;
    return {
      reason,
      atMs: this.sim.now,
      lastEventId: this.sim.trace.length - 1,
      maxEvents: this.maxEvents,
      maxScriptInstructions: this.maxScriptInstructions,
      horizonMs: this.scenario.horizon,
    };
  }

  /**
   * Lets go of the run once nothing more will be read from it but what is already taken (the
   * explorer keeps only a verdict): its machines stop holding the World, so the garbage
   * collector frees it with the young generation instead of copying it (ClientShell.detachMachines),
   * and its trace's columns go to the next run (Trace.release). The run cannot be stepped or read further.
   */
  release(): void {
    this.world.release();
    this.sim.trace.release();
  }

  private at(atMs: number, action: UntimedAction, source: 'script' | 'learner'): void {
    this.sim.kernel.schedule(atMs, null, () => {
      const actor = 'target' in action ? action.target : 'network';
      this.sim.record('action.apply', actor, { action: action.do, source, detail: describeAction(action) });
      this.world.apply(action);
    });
  }

  private end(reason: EndReason): false {
    this.endReason = reason;
    this.steps++;
    this.sim.record('run.end', 'world', { reason });
    return false;
  }
}

/**
 * Wraps the run's script engine so the run can count the Lua work its servers do. The count
 * is read from the engine's own statistics (LuaScriptEngine's `lastRun`), duck-typed so that
 * engines without them (test doubles) simply count nothing.
 */
function metered(engine: ScriptEngine, count: (instructions: number) => void): ScriptEngine {
  const measure = (view: ScriptEngine): ScriptEngine => ({
    run: (request) => {
      const reply = view.run(request);
      count((engine as { lastRun?: { instructions: number } }).lastRun?.instructions ?? 0);
      return reply;
    },
  });
  return { run: measure(engine).run, forServer: () => measure(engine.forServer?.() ?? engine) };
}

/** How many nodes must hold a key for its owner to hold the lock: a majority of the nodes its clients use. */
export function quorumByKey(spec: WorldSpec): (key: string) => number {
  const nodes = new Map<string, Set<string>>();
  for (const c of spec.clients)
    for (const key of c.keys) for (const n of c.nodes) nodes.set(key, (nodes.get(key) ?? new Set()).add(n));
  const redlock = new Set(spec.clients.filter((c) => c.recipe === 'redlock').flatMap((c) => c.keys));
  return (key) => (redlock.has(key) ? REDLOCK.quorum(nodes.get(key)?.size ?? 1) : 1);
}
