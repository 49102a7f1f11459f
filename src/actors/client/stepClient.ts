import { createActor, type Actor } from 'xstate';
import { formatReply } from '../../redis/cliFormat';
import type { Reply } from '../../redis/reply';
import type { Sim } from '../../sim/sim';
import { fillPlaceholders, keyOf, type ClientStep } from './clientSteps';
import { ClientShell } from './clientShell';
import type { ClientSpec } from './clientSpec';
import type { StepClientWiring } from './clientWiring';
import { keyData } from './lockClientCaches';
import { ProcessClock } from '../process/processClock';
import type { ReadResult } from '../resources/resource';
import { counted, failure, leaseOf, type FailedAcquire } from '../recipes/recipe';
import { readResource, writeResource } from '../resources/resourceCalls';
import { Rpc, type RpcResult } from './rpc';
import { stepListOf, type StepList } from './stepClientCaches';
import {
  bindStepEffects,
  stepClientMachine,
  unbindStepEffects,
  type StepClientLaneState,
  type StepClientMachineState,
} from './stepClientMachine';

/**
 * A client that follows an explicit step list instead of a recipe. Its machine walks the list
 * (running → waiting → done); this class carries each step out and records it: `step.start`
 * and `step.done` for every step, plus what the step means to the lock — `lock.acquired` when
 * an acquiring command succeeds, `lock.busy` when it does not, `lock.released`, `lock.renewed`
 * or `lock.lost` — so every checker judges a step client like any other. A `fence` step's
 * integer answer becomes the token its writes carry.
 */
export class StepClient extends ClientShell<StepClientLaneState> {
  private actor: Actor<typeof stepClientMachine>;
  private readonly rpc: Rpc;
  /** What every client following this list shares, whatever the run (stepClientCaches.ts). */
  private readonly list: StepList;
  private readonly steps: readonly ClientStep[];
  /** The client's lock key: what `{key}` stands for. */
  private readonly key: string;
  private token: number | null = null;
  private basis: ReadResult | null = null;
  /**
   * Each Redis step's arguments with the placeholders filled, the token they were filled with,
   * and the key they name. A busy step is retried again and again with the same arguments:
   * sending the same array lets Rpc reuse its command line instead of building one per try.
   */
  private readonly filled: (Filled | undefined)[] = [];

  constructor(
    sim: Sim,
    private readonly spec: ClientSpec,
    private readonly wiring: StepClientWiring,
  ) {
    super(sim, { ...spec, random: wiring.random, network: wiring.network, resource: wiring.resource });
    this.steps = spec.steps ?? [];
    this.key = spec.keys[0]!;
    this.rpc = new Rpc(sim, wiring.network, this.process, spec.timeoutMs);
    this.list = stepListOf(this.steps);
    this.actor = this.spawn(spec.startAtMs);
  }

  protected stopMachine(): void {
    this.actor.stop();
  }

  /** It starts its list again from the top, with no token and nothing read. */
  protected startOver(): void {
    this.token = null;
    this.basis = null;
    this.actor = this.spawn(0);
  }

  /** A new machine, started now and told to go at `startAtMs` on the process's clock. */
  private spawn(startAtMs: number): Actor<typeof stepClientMachine> {
    // The same kernel-driven clock as the lock client: delays are virtual and freeze in a pause.
    const clock = new ProcessClock(this.process);
    // Not restored from a cached snapshot as a lock client's machine is: restoring walks the
    // context, and this one's list of waits (an array inside it) kept V8 deoptimizing and
    // recompiling XState's walk, which cost Break it more (runs/s ~8% lower in Chromium, with
    // one worker and with two) than entering the initial state saves.
    const actor = createActor(stepClientMachine, { input: this.list.input, clock });
    bindStepEffects(actor, {
      runStep: (index) => this.run(index),
      waitStarted: (index) => this.startStep(index),
      waitEnded: (index) => this.sim.record('step.done', this.id, { index, result: 'waited' }),
    });
    const subscription = actor.subscribe((snapshot) => this.recordState(snapshot.value as StepClientMachineState));
    this.ties.add(() => {
      subscription.unsubscribe();
      clock.release();
      unbindStepEffects(actor);
    });
    actor.start();
    this.process.setTimer(startAtMs, () => actor.send({ type: 'START' }));
    return actor;
  }

  private startStep(index: number): void {
    this.sim.record('step.start', this.id, this.list.starts[index]!);
  }

  private finish(index: number, result: string): void {
    this.sim.record('step.done', this.id, { index, result });
    this.actor.send({ type: 'NEXT' });
  }

  private run(index: number): void {
    const step = this.steps[index]!;
    this.startStep(index);
    if (step.do === 'redis') return this.command(index, step);
    if (step.do === 'read') return this.read(index);
    if (step.do === 'write') return this.write(index);
  }

  private command(index: number, step: Extract<ClientStep, { do: 'redis' }>): void {
    const { defaultNode, nodeById } = this.wiring;
    const { ttlMs } = this.spec;
    const { argv, key } = this.filledIn(index, step);
    const node = step.node === null ? defaultNode : nodeById(step.node)!;
    if (step.as === 'acquire' && this.tries.failures === 0) this.sim.record('lock.request', this.id, keyData(key));
    this.rpc.call(
      node,
      argv,
      spaced,
      (result) => {
        const answer = !result.ok
          ? 'no answer (timeout)'
          : result.refusal === undefined
            ? formatReply(result.reply)
            : `${formatReply(result.reply)}; ${result.refusal}`;
        if (step.as === 'acquire') return this.acquired(index, step, key, argv, result, answer);
        if (step.as === 'release' && result.ok) {
          this.held = this.held.filter((k) => k !== key);
          this.sim.record('lock.released', this.id, { key, deleted: positive(result.reply) });
        }
        // A token drawn on its own is kept whatever the lock is doing: that is the point of the
        // step, and of the bug it can write (INCR before SET: the number may belong to no lease).
        if (step.as === 'fence' && result.ok && result.reply.type === 'integer')
          this.token = Number(result.reply.value);
        if (step.as === 'renew') {
          if (counted(result) && positive(result.reply))
            this.sim.record('lock.renewed', this.id, { key, ttlMs: pxOf(argv) ?? ttlMs });
          else if (counted(result) && this.held.includes(key)) {
            this.held = this.held.filter((k) => k !== key);
            this.sim.record('lock.lost', this.id, { key, reason: 'renewal refused' });
          }
        }
        this.finish(index, answer);
      },
      undefined,
      step.as === 'acquire' ? key : undefined,
    );
  }

  /** Step `index`'s arguments as sent now (only `{token}` changes during a run), and the key they name. */
  private filledIn(index: number, step: Extract<ClientStep, { do: 'redis' }>): Filled {
    const kept = this.filled[index];
    if (kept?.token === this.token) return kept;
    const { value } = this.wiring;
    const { ttlMs, id } = this.spec;
    const argv = fillPlaceholders(step.argv, { value, token: this.token, key: this.key, ttlMs, id });
    const filled = { token: this.token, argv, key: keyOf(argv) ?? this.key };
    this.filled[index] = filled;
    return filled;
  }

  /**
   * An acquiring step's answer: the lock; or busy (retry, skip or stop as the step says); or an
   * error reply, after which the client stops (trying the same command again cannot help).
   */
  private acquired(
    index: number,
    step: Extract<ClientStep, { do: 'redis' }>,
    key: string,
    argv: string[],
    result: RpcResult,
    answer: string,
  ): void {
    const grant = result.ok && granted(result.reply);
    if (grant && result.refusal === undefined) {
      this.tries.reset();
      const token = issuesToken(argv) && result.reply.type === 'integer' ? Number(result.reply.value) : null;
      if (token !== null) this.token = token;
      if (!this.held.includes(key)) this.held.push(key);
      // The lease the key got, whichever argument or script line set it (see KeyLease in rpc.ts).
      this.sim.record('lock.acquired', this.id, { key, value: this.wiring.value, token, ttlMs: leaseOf(result) });
      return this.finish(index, answer);
    }
    // Redis granted it but the client library did not count it (WAIT): busy, with the reason. A
    // step list says every command itself, so it deletes a refused key only if a step does.
    const failed: FailedAcquire =
      grant && result.refusal !== undefined
        ? { ok: false, reason: 'busy', refusal: result.refusal, release: false }
        : failure(result);
    if (failed.reason !== 'error')
      this.sim.record('lock.busy', this.id, 'refusal' in failed ? { key, refusal: failed.refusal } : keyData(key));
    const delayMs = this.tries.failed(failed.reason, step.ifBusy === 'retry');
    if (delayMs !== null) {
      this.sim.record('step.done', this.id, { index, result: `${answer}: busy, retry in ${delayMs} ms` });
      this.recordState('retrying');
      this.process.setTimer(delayMs, () => {
        this.run(index);
        this.recordState('running');
      });
      return;
    }
    const attempts = this.tries.failures;
    this.tries.reset();
    if (failed.reason === 'error') {
      this.sim.record('lock.failed', this.id, { key, attempts, error: failed.error });
      this.sim.record('step.done', this.id, { index, result: `${answer}: an error, stopping` });
      return void this.actor.send({ type: 'STOP' });
    }
    if (step.ifBusy === 'skip') return this.finish(index, `${answer}: busy, going on without the lock`);
    this.sim.record('lock.failed', this.id, { key, attempts });
    this.sim.record('step.done', this.id, { index, result: `${answer}: busy, giving up` });
    this.actor.send({ type: 'STOP' });
  }

  private read(index: number): void {
    readResource(this.resourceLine, (result) => {
      this.basis = result;
      this.finish(index, result.value);
    });
  }

  private write(index: number): void {
    writeResource(this.resourceLine, this.token, this.basis, (accepted) =>
      this.finish(index, accepted ? 'accepted' : 'rejected'),
    );
  }
}

/** A Redis step's arguments filled in with the token of the moment, and the key they name. */
interface Filled {
  token: number | null;
  argv: string[];
  key: string;
}

/** OK, or a positive integer (SETNX's 1, a script's token): the command did what was asked. */
function granted(reply: Reply): boolean {
  return (reply.type === 'status' && reply.value === 'OK') || positive(reply);
}

function positive(reply: Reply): boolean {
  return reply.type === 'integer' && reply.value > 0n;
}

/** A script or INCR answers with a token; SETNX's 1 is only a yes. */
function issuesToken(argv: readonly string[]): boolean {
  return ['EVAL', 'EVALSHA', 'INCR'].includes((argv[0] ?? '').toUpperCase());
}

/** The lease length a SET ... PX / PEXPIRE asks for, if it says. */
function pxOf(argv: readonly string[]): number | null {
  const name = (argv[0] ?? '').toUpperCase();
  if (name === 'PEXPIRE') return Number(argv[2]) || null;
  if (name === 'EXPIRE') return Number(argv[2]) * 1000 || null;
  const px = argv.findIndex((a) => a.toUpperCase() === 'PX');
  if (px > 0) return Number(argv[px + 1]) || null;
  const ex = argv.findIndex((a) => a.toUpperCase() === 'EX');
  return ex > 0 ? Number(argv[ex + 1]) * 1000 || null : null;
}

/** A step's command as its arrow's label: every argument, as written. */
function spaced(argv: readonly string[]): string {
  return argv.join(' ');
}
