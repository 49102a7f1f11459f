import { createActor } from 'xstate';
import type { Sim } from '../../sim/sim';
import { formatMs } from '../../sim/time';
import type { TraceTag } from '../../sim/trace';
import { CallBreaker } from './callBreaker';
import type { CircuitBreakerLaneState } from './circuitBreakerMachine';
import { ClientShell } from './clientShell';
import type { ClientSpec } from './clientSpec';
import type { LockClientWiring } from './clientWiring';
import { initialSnapshot, keyData, type ClientActorRef } from './lockClientCaches';
import {
  bindEffects,
  lockClientInput,
  lockClientMachine,
  machineState,
  unbindEffects,
  type LockClientEffects,
  type LockClientEvent,
  type LockClientInput,
  type LockClientLaneState,
} from './lockClientMachine';
import { ProcessClock } from '../process/processClock';
import type { AcquireResult, FailedAcquire, Granted, Recipe } from '../recipes/recipe';
import type { ReadResult } from '../resources/resource';
import { readResource, writeResource } from '../resources/resourceCalls';
import { Rpc } from './rpc';
import { ValidityWindow } from './validityWindow';
import { HeldLease } from './heldLease';

/**
 * A lock client process running the lock client machine. The machine decides (what follows an
 * acquisition, renew, stop, where giving up leads; Tries decides whether to try again); this
 * class carries each decision out over the network with the recipe's commands and records what
 * the client believes in the trace: `lock.acquired` when it thinks it holds a key,
 * `lock.released`/`lock.lost` when it stops thinking so, `lock.failed` when it gives up.
 */
export class LockClient
  extends ClientShell<LockClientLaneState | CircuitBreakerLaneState>
  implements LockClientEffects
{
  private actor: ClientActorRef;
  /** The circuit breaker around acquire calls, for a client with `breaker:`. */
  private breaker: CallBreaker | null = null;
  /** What the client's own machine (or its retry pause) shows, before the breaker has its say. */
  private ownState: LockClientLaneState = 'idle';
  private readonly recipe: Recipe;
  /** The lease it believes it has: its deadline, its cap, the watchdog's renewals and the release. */
  private readonly lease: HeldLease;
  /** Redlock's validity on the monotonic clock (with `validity: respected`; never opened otherwise). */
  private readonly validity: ValidityWindow;
  private basis: ReadResult | null = null;
  private token: number | null = null;
  /** The job's work in progress (`Process.compute`), or null. */
  private work: number | null = null;
  /** How the last failed try went and how many tries failed in a row, for the trace's lock.failed. */
  private lastFailure: FailedAcquire = { ok: false, reason: 'busy' };
  private failuresBeforeGivingUp = 0;
  // The events every attempt records, as the trace stores their kind and this client's id.
  private readonly requestTag: TraceTag<'lock.request'>;
  private readonly busyTag: TraceTag<'lock.busy'>;
  private readonly input: LockClientInput;

  constructor(
    sim: Sim,
    private readonly spec: ClientSpec,
    private readonly wiring: LockClientWiring,
  ) {
    super(sim, { ...spec, random: wiring.random, network: wiring.network, resource: wiring.resource });
    this.requestTag = sim.trace.tagOf('lock.request', spec.id);
    this.busyTag = sim.trace.tagOf('lock.busy', spec.id);
    const rpc = new Rpc(sim, wiring.network, this.process, spec.timeoutMs);
    this.recipe = wiring.recipe({
      rpc,
      process: this.process,
      nodes: wiring.nodes,
      value: wiring.value,
      ttlMs: spec.ttlMs,
      fencing: wiring.fencing,
      gapMs: spec.gapMs,
      permits: spec.permits ?? 1,
    });
    this.lease = new HeldLease(sim, this.process, this.recipe, spec);
    this.input = lockClientInput(spec, wiring.resource.readsFirst);
    this.validity = new ValidityWindow(this.process, () => this.actor.send({ type: 'LAPSED' }));
    this.actor = this.spawn(spec.startAtMs);
    this.breaker = this.spawnBreaker();
  }

  protected stopMachine(): void {
    this.actor.stop();
    this.breaker?.stop();
    this.work = null;
    this.validity.close();
  }

  protected startOver(): void {
    this.actor = this.spawn(0);
    this.breaker = this.spawnBreaker();
  }

  /** A closed circuit breaker, or null for a client without one; a change shows on the lane at once. */
  private spawnBreaker(): CallBreaker | null {
    return this.spec.breaker === undefined
      ? null
      : CallBreaker.start(this.process, this.spec.breaker, this.ties, () => this.showState(this.ownState));
  }

  /**
   * Shows the client's state on its lane; while a try is out or pending and the breaker is not
   * closed, the breaker's word (`circuit-open`, `half-open`) replaces `acquiring`/`retrying`.
   */
  private showState(state: LockClientLaneState): void {
    this.ownState = state;
    const trying = state === 'acquiring' || state === 'retrying';
    const breaker = trying ? (this.breaker?.laneState() ?? null) : null;
    this.recordState(breaker ?? state);
  }

  /** A new machine, started now and told to go at `startAtMs` on the process's clock. */
  private spawn(startAtMs: number): ClientActorRef {
    const input = this.input;
    const clock = new ProcessClock(this.process);
    const actor: ClientActorRef = createActor(lockClientMachine, { input, snapshot: initialSnapshot(input), clock });
    bindEffects(actor, this);
    const subscription = actor.subscribe((snapshot) => this.showState(machineState(snapshot)));
    this.ties.add(() => {
      subscription.unsubscribe();
      clock.release();
      unbindEffects(actor);
    });
    actor.start();
    this.process.setTimer(startAtMs, () => actor.send({ type: 'START' }));
    return actor;
  }

  // The effects the machine asks for (LockClientEffects), bound to its actor in spawn(). They
  // are methods rather than an object of closures because every client of every run binds them.

  /** Effect: take the next key. */
  startAcquire(): void {
    this.acquireNext();
  }

  /** Effect: take the first key again while holding it. */
  startReenter(): void {
    this.reenter();
  }

  /** Effect: read the resource. */
  startRead(): void {
    readResource(this.resourceLine, (result) => {
      this.basis = result;
      this.tell({ type: 'READ_DONE', act: result.act });
    });
  }

  /**
   * Effect: do the job's work, which takes workMs of this process's running time: a pause stops
   * it, while the watchdog's and other timers keep their deadlines.
   */
  startWork(): void {
    const workMs = this.spec.workMs;
    if (workMs !== null) this.work = this.process.compute(workMs, this.workDone);
  }

  /** Effect: left `working`, written or not (a lost lease stops the work). */
  stopWork(): void {
    if (this.work !== null) this.process.cancelCompute(this.work);
    this.work = null;
  }

  private readonly workDone = (): void => {
    this.work = null;
    // A careful Redlock client looks at its validity before it writes: a pause during the work
    // may have outlasted it (its timer fires at the resume, but the work may end at that instant).
    this.actor.send({ type: this.validity.over() ? 'LAPSED' : 'WORKED' });
  };

  /** Effect: write the work's result to the resource. */
  startWrite(): void {
    writeResource(this.resourceLine, this.token, this.basis, () => this.tell({ type: 'WRITE_DONE' }));
  }

  /** Effect: release every held key. */
  startRelease(): void {
    this.validity.close();
    this.release();
  }

  /** Effect: renew every held key (the watchdog). */
  startRenew(): void {
    this.renew();
  }

  /** Effect: the client gave up on the next key (Tries decided). */
  noteFailed(): void {
    const failure = this.lastFailure;
    const attempts = this.failuresBeforeGivingUp;
    this.sim.record('lock.failed', this.id, {
      key: this.nextKey(),
      attempts,
      ...(failure.reason === 'error' ? { error: failure.error } : {}),
    });
  }

  /** Effect: a renewal failed, so the client stops believing it holds its keys. */
  noteLost(): void {
    this.validity.close();
    this.lose('renewal failed');
  }

  /**
   * Effect: Redlock's validity ran out. The client stops believing it holds its keys, but keeps
   * the list: the release that follows unlocks every master (a key that already expired is
   * simply not there; one a slow clock kept alive is freed at once).
   */
  noteLapsed(): void {
    for (const key of this.held)
      this.sim.record('lock.lost', this.id, {
        key,
        reason: 'validity ran out: it stops using the lock and unlocks every master',
      });
  }

  /** Effect: working without the lock: it holds nothing, so it has nothing to release afterwards. */
  noteProceeding(): void {
    this.held = [];
    this.token = null;
  }

  private nextKey(): string {
    return this.spec.keys[Math.min(this.held.length, this.spec.keys.length - 1)]!;
  }

  /** Takes the next key not yet held; holding all of them is what "acquired" means. */
  private acquireNext(): void {
    const key = this.nextKey();
    if (this.held.length === 0) this.lease.tryStarted();
    this.sim.recordTagged(this.requestTag, keyData(key));
    if (this.breaker?.isOpen()) {
      // Fail fast: Redis is not asked. The answer comes on the next tick, never inside the
      // machine's own transition, and counts as silence (the server is presumed down).
      this.process.setTimer(0, this.failedFast);
      return;
    }
    this.recipe.acquire(key, this.breaker === null ? this.answeredNext : this.answeredThroughBreaker);
  }

  private readonly failedFast = (): void => this.answeredNext({ ok: false, reason: 'timeout' });

  /** A real call's answer, told to the breaker first: silence counts against Redis, any answer for it. */
  private readonly answeredThroughBreaker = (result: AcquireResult): void => {
    this.breaker?.heard(result);
    this.answeredNext(result);
  };

  /**
   * The answer to acquireNext's try, for the key it tried (nothing changes what is held while a
   * try is out). Bound once rather than a closure per try: a contended client tries thousands
   * of times.
   */
  private readonly answeredNext = (result: AcquireResult): void => {
    const key = this.nextKey();
    if (!result.ok) return this.failedTry(key, result, this.retryAcquire);
    this.held.push(key);
    this.token = result.token;
    this.recordAcquired(key, result);
    if (result.validityMs !== undefined && this.spec.redlock.validity === 'respected')
      this.validity.open(result.validityMs);
    if (this.held.length < this.spec.keys.length) return this.acquireNext();
    this.tries.reset();
    this.lease.allTaken(result);
    this.actor.send({ type: 'ACQUIRED' });
  };

  /**
   * A failed try: wait as Tries says and `retry`, or tell the machine the client gave up. The
   * wait is shown as `retrying`; the machine stays in its state (acquiring or reentering).
   */
  private failedTry(key: string, result: FailedAcquire, retry: () => void): void {
    this.lastFailure = result;
    // An error reply is not a taken lock: it is recorded by lock.failed, with its text. A refusal
    // is the client library's own decision, so the trace keeps its reason.
    if ('refusal' in result) this.sim.record('lock.busy', this.id, { key, refusal: result.refusal });
    else if (result.reason !== 'error') this.sim.recordTagged(this.busyTag, keyData(key));
    // Like Redisson, give back the key Redis granted but the client refused, then carry on.
    if ('refusal' in result && result.release) {
      return this.recipe.release(key, (deleted) => {
        this.sim.record('lock.released', this.id, { key, deleted });
        this.afterFailedTry(result, retry);
      });
    }
    this.afterFailedTry(result, retry);
  }

  /** What follows a failed try: the retry policy's pause and `retry`, or giving up. */
  private afterFailedTry(result: FailedAcquire, retry: () => void): void {
    const delayMs = this.tries.failed(result.reason);
    if (delayMs === null) {
      this.failuresBeforeGivingUp = this.tries.failures;
      this.tries.reset();
      return void this.actor.send({ type: 'GAVE_UP', failure: result.reason });
    }
    this.showState('retrying');
    this.process.setTimer(delayMs, retry);
  }

  // What a retry does once its wait is over; bound once, as a contended client retries thousands of times.
  private readonly retryAcquire = (): void => {
    this.showState(machineState(this.actor.getSnapshot()));
    this.acquireNext();
  };

  private readonly retryReenter = (): void => {
    this.showState(machineState(this.actor.getSnapshot()));
    this.reenter();
  };

  /** A nested call takes the first lock again while already holding it. */
  private reenter(): void {
    const key = this.spec.keys[0]!;
    this.sim.recordTagged(this.requestTag, keyData(key));
    this.recipe.acquire(key, (result) => {
      if (!result.ok) return this.failedTry(key, result, this.retryReenter);
      this.tries.reset();
      this.recordAcquired(key, result);
      this.actor.send({ type: 'ACQUIRED' });
    });
  }

  /** `lock.acquired`: the lease the key got, and Redlock's validity under its own name. */
  private recordAcquired(key: string, result: Granted): void {
    const { token, leaseMs, validityMs } = result;
    this.sim.record('lock.acquired', this.id, {
      key,
      value: this.wiring.value,
      token,
      ttlMs: leaseMs,
      ...(validityMs === undefined ? {} : { validityMs }),
    });
  }

  /** Releases every held key, last taken first (and a reentrant one once per entry). */
  private release(): void {
    const entries = this.recipe.reentrant ? this.actor.getSnapshot().context.reentered + 1 : 1;
    this.lease.release(this.held, entries, () => {
      this.held = [];
      this.basis = null;
      this.actor.send({ type: 'RELEASED' });
    });
  }

  /** The watchdog: extends every held key, unless the job has been held past its cap. */
  private renew(): void {
    // Past its cap the watchdog does not ask again: the job is given up and the lease left to
    // expire, the way a watchdog that watches the work (not just the process) ends a wedge.
    const cap = this.lease.capReached();
    if (cap !== null) {
      this.lose(`held for ${formatMs(cap)}, its cap: the watchdog stops renewing`);
      return void this.actor.send({ type: 'RENEW_FAILED', definite: true, leaseLeftMs: this.lease.leftMs() });
    }
    this.lease.renew(this.held, (outcome) => this.tell(outcome));
  }

  /**
   * Tells the machine how a renewal, a read or a write went, unless its job has ended meanwhile:
   * a renewal sent just before the release can be answered after it (the key is gone by then), a
   * write that left just before a renewal's answer said the lease was lost is answered after the
   * client stopped, and so is a read during which a Redlock client's validity ran out. A finished
   * machine has nothing to do with the answer.
   */
  private tell(
    event: Extract<LockClientEvent, { type: 'RENEWED' | 'RENEW_FAILED' | 'READ_DONE' | 'WRITE_DONE' }>,
  ): void {
    if (this.actor.getSnapshot().status === 'active') this.actor.send(event);
  }

  private lose(reason: string): void {
    for (const key of this.held) this.sim.record('lock.lost', this.id, { key, reason });
    this.held = [];
  }
}
