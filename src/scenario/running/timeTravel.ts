import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Scenario } from '../schema/schema';
import { Simulation, type RunOptions } from './simulation';

/**
 * A run that can step backwards. Stepping back rebuilds the run from its identity (scenario,
 * seed, learner actions) and replays it to one step earlier: the kernel's agenda holds
 * closures over live actors, XState actors and Redis keyspaces, so a faithful snapshot would
 * have to serialise all of them, while a replay of a whole lesson scenario costs well under a
 * millisecond (see `npm run bench`). Determinism makes the replay exact, and the property tests
 * in timeTravel.test.ts hold it to that.
 */
export class Rewindable {
  private current: Simulation;

  constructor(
    readonly scenario: Scenario,
    readonly options: RunOptions = {},
    readonly scripts?: ScriptEngine,
  ) {
    this.current = this.fresh();
  }

  /** The simulation at the current position (replaced by a new object after a step back). */
  get simulation(): Simulation {
    return this.current;
  }

  /** Kernel steps taken from the start. */
  get position(): number {
    return this.current.steps;
  }

  /** One step forward; false once the run has ended. */
  step(): boolean {
    return this.current.step();
  }

  /** `count` steps back (not before the start). */
  stepBack(count = 1): void {
    this.seek(Math.max(0, this.position - count));
  }

  /** Moves to exactly `steps` kernel steps from the start (or the end, if the run is shorter). */
  seek(steps: number): void {
    if (steps < this.position) this.current = this.fresh();
    while (this.position < steps && this.current.step());
  }

  private fresh(): Simulation {
    return new Simulation(this.scenario, this.options, this.scripts);
  }
}
