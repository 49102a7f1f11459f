import { createActor, type Actor } from 'xstate';
import { formatReply } from '../redis/cliFormat';
import type { Network } from '../net/network';
import type { Sim } from '../sim/sim';
import { lockClientMachine, type LockClientContext, type LockClientInput } from './lockClientMachine';
import { Process } from './process';
import { ACQUIRE_WITH_FENCE, RELEASE_IF_MINE } from './recipes/lockScripts';
import type { RedisNode } from './redisNode';
import type { Store } from './resources/store';

export type ReleaseStyle = 'plain-del' | 'check-and-delete';

export interface LockClientOptions {
  id: string;
  input: LockClientInput;
  release: ReleaseStyle;
  network: Network;
  redis: RedisNode;
  resource: Store;
}

/**
 * A lock client process running the lock client machine. The machine decides; this class
 * carries its decisions over the network and records what the client believes in the trace.
 */
export class LockClient {
  readonly process: Process;
  private actor: Actor<typeof lockClientMachine>;
  private lastState = '';

  constructor(
    private readonly sim: Sim,
    private readonly options: LockClientOptions,
  ) {
    this.process = new Process(sim, options.id);
    this.actor = this.spawn(options.input);
    this.process.onCrash = () => {
      this.actor.stop();
      this.recordState('crashed');
    };
    // A restarted client remembers nothing and starts over at once, with a fresh value.
    this.process.onRestart = () => {
      this.actor = this.spawn({ ...options.input, startAtMs: 0 });
    };
  }

  /** The machine's state, for the inspector. */
  get state(): string {
    return this.lastState;
  }

  get context(): LockClientContext {
    return this.actor.getSnapshot().context;
  }

  private spawn(input: LockClientInput): Actor<typeof lockClientMachine> {
    // XState's clock is just setTimeout/clearTimeout: route both to the kernel, in this
    // process's local time, so delays are virtual and freeze while the process is paused.
    const clock = {
      setTimeout: (fn: () => void, ms: number) => this.process.setTimer(ms, fn),
      clearTimeout: (handle: unknown) => this.sim.kernel.cancel(handle as number),
    };
    const id = this.options.id;
    const machine = lockClientMachine.provide({
      actions: {
        sendAcquire: ({ context }) => {
          this.sim.record('lock.request', id, { key: context.key });
          this.redis(context.fencing ? acquireFencedArgv(context) : acquireArgv(context));
        },
        noteAcquired: ({ context }) =>
          this.sim.record('lock.acquired', id, { key: context.key, value: context.value, token: context.token, ttlMs: context.ttlMs }),
        noteBusy: ({ context }) => this.sim.record('lock.busy', id, { key: context.key }),
        sendWrite: ({ context }) => this.write(context),
        sendRelease: ({ context }) => this.redis(this.releaseArgv(context)),
        noteReleased: ({ context, event }) => {
          const deleted = event.type === 'redis.reply' && event.reply.type === 'integer' && event.reply.value > 0n;
          this.sim.record('lock.released', id, { key: context.key, deleted });
        },
      },
    });
    const actor = createActor(machine, { input, clock });
    actor.subscribe((snapshot) => this.recordState(String(snapshot.value)));
    actor.start();
    return actor;
  }

  private recordState(state: string): void {
    if (state === this.lastState) return;
    this.lastState = state;
    this.sim.record('actor.state', this.options.id, { state });
  }

  /** Sends a command to Redis and feeds the reply back to the machine when it returns. */
  private redis(argv: string[]): void {
    const { network, redis, id } = this.options;
    const msg = network.send(id, redis.process, commandLabel(argv), () => {
      const reply = redis.execute(argv, id, msg);
      network.send(redis.id, this.process, formatReply(reply), () => this.actor.send({ type: 'redis.reply', reply }));
    });
  }

  private write(context: LockClientContext): void {
    const { network, resource, id } = this.options;
    const value = `${id}'s order`;
    this.sim.record('resource.request', id, { resource: resource.id, token: context.token, value });
    const label = context.token === null ? 'write' : `write token=${context.token}`;
    network.send(id, resource.process, label, () => {
      const accepted = resource.write(id, context.token, value);
      network.send(resource.id, this.process, accepted ? 'accepted' : 'rejected', () =>
        this.actor.send({ type: 'resource.ack', accepted }),
      );
    });
  }

  private releaseArgv(context: LockClientContext): string[] {
    return this.options.release === 'plain-del'
      ? ['DEL', context.key]
      : ['EVAL', RELEASE_IF_MINE, '1', context.key, context.value];
  }
}

function acquireArgv(c: LockClientContext): string[] {
  return ['SET', c.key, c.value, 'NX', 'PX', String(c.ttlMs)];
}

function acquireFencedArgv(c: LockClientContext): string[] {
  return ['EVAL', ACQUIRE_WITH_FENCE, '2', c.key, `${c.key}:fence`, c.value, String(c.ttlMs)];
}

/** A short label for the arrow on the timeline: scripts are named, not printed whole. */
function commandLabel(argv: string[]): string {
  if (argv[0] === 'EVAL') return argv[1] === RELEASE_IF_MINE ? 'EVAL release-if-mine' : 'EVAL acquire-with-fence';
  return argv.join(' ');
}
