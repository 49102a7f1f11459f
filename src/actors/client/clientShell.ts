import type { Network } from '../../net/network';
import type { Prng } from '../../sim/prng';
import type { Sim } from '../../sim/sim';
import type { TraceTag } from '../../sim/trace';
import type { ClientActor, ClientLaneState } from './clientActor';
import { Process } from '../process/process';
import { Tries, type RetryPolicy } from './retryPolicy';
import { MachineTies } from '../process/machineTies';
import type { Resource } from '../resources/resource';
import type { ResourceLine } from '../resources/resourceCalls';

/**
 * The lane's state data is one shared, frozen object per state: a contended run records
 * hundreds of thousands of state changes, and each object kept alive in the trace was work for
 * the garbage collector.
 */
const sharedStates = new Map<ClientLaneState, Readonly<{ state: ClientLaneState }>>();

function stateData(state: ClientLaneState): { state: ClientLaneState } {
  let data = sharedStates.get(state);
  if (data === undefined) sharedStates.set(state, (data = Object.freeze({ state })));
  return data;
}

/** What every client is made of, whatever drives it. */
export interface ClientShellOptions {
  id: string;
  /** Clock drift of this client's process, in ppm. */
  driftPpm: number;
  retry: RetryPolicy;
  /** This client's own random stream (retry jitter). */
  random: Prng;
  /** The network and the resource its job reads and writes over it. */
  network: Network;
  resource: Resource;
}

/**
 * The shell both client kinds (LockClient, running a recipe, and StepClient, following a step
 * list) live in: their process, what the lane shows, the keys they believe they hold, their
 * tries at the lock, and what a crash and a restart do to all of that. A crash stops the
 * machine and forgets every belief (`crashed`); a restart remembers nothing and starts a new
 * machine at once. Subclasses say how to start and stop their machine.
 */
export abstract class ClientShell<State extends ClientLaneState> implements ClientActor {
  readonly process: Process;
  /** Keys this client believes it holds, in the order it took them. */
  protected held: string[] = [];
  /** Its tries at the lock: where both kinds decide to retry or give up. */
  protected readonly tries: Tries;
  private lastState: State | 'crashed' | '' = '';
  /** How to cut each machine this client started loose from it (see detachMachines). */
  protected readonly ties = new MachineTies();
  private readonly stateTag: TraceTag<'actor.state'>;
  /** How this client reaches the resource (its reads and writes go over the network). */
  protected readonly resourceLine: ResourceLine;

  constructor(
    protected readonly sim: Sim,
    options: ClientShellOptions,
  ) {
    this.process = new Process(sim, options.id, options.driftPpm);
    this.stateTag = sim.trace.tagOf('actor.state', options.id);
    this.resourceLine = {
      sim,
      id: options.id,
      process: this.process,
      network: options.network,
      resource: options.resource,
    };
    this.tries = new Tries(options.retry, options.random);
    this.process.onCrash(() => {
      this.stopMachine();
      this.held = [];
      this.recordState('crashed');
    });
    this.process.onRestart(() => {
      this.tries.reset();
      this.startOver();
    });
  }

  get id(): string {
    return this.process.id;
  }

  /** What the lane shows now, for the inspector ('' before the machine has started). */
  get state(): State | 'crashed' | '' {
    return this.lastState;
  }

  /**
   * Cuts a finished run's machines loose from this client. XState's microstep leaves a closure
   * in the old generation (a function assigned to a property, which V8 pretenures) that holds
   * the actor until the next full collection; through its clock, its subscription and its
   * effects the actor held this client, and so the whole run, through every young collection.
   * The explorer releases each run as soon as it has the verdict.
   */
  detachMachines(): void {
    this.ties.cutAll();
  }

  /** The process crashed: stop the machine and drop what only it remembered (timers die with the process). */
  protected abstract stopMachine(): void;

  /** The process restarted: forget everything else and start a new machine, at once. */
  protected abstract startOver(): void;

  /** Shows `state` on the lane, once per change. */
  protected recordState(state: State | 'crashed'): void {
    if (state === this.lastState) return;
    this.lastState = state;
    this.sim.recordTagged(this.stateTag, stateData(state));
  }
}
