import { resolveCommand } from '../../redis/commandTable';
import type { Reply } from '../../redis/reply';
import type { Process } from '../process/process';
import type { Owner } from '../../sim/kernel';
import type { RedisNode, RedisServerNode, WaitReply } from './redisNode';
import type { RedisServer } from '../../redis/server';

/** Follow each write with `WAIT replicas timeoutMs`, like Redisson does after every lock script. */
export interface WaitAfterWrites {
  replicas: number;
  timeoutMs: number;
  /** The client library deletes a key it refused (see `RpcResult`'s refusal). */
  releaseRefused: boolean;
}

/**
 * A client's connection that follows the primary. Like a real client it keeps its connection
 * to the node it is talking to for as long as that connection lasts; it asks again (the
 * Sentinel group's published primary, `current()`) when the node crashed (the connection
 * broke) or stopped being a primary (Redis closes client connections when it turns into a
 * replica). So a client on the far side of a partition keeps writing to the old primary while
 * Sentinel promotes another: split brain. With `wait`, each
 * write is pipelined with a WAIT on the same node, and the client hears both of Redis's replies
 * (the write's, then WAIT's integer) once WAIT has answered. Whether that count is enough is the
 * client library's judgement, not Redis's: `Rpc` makes it and records it (see `rpc.ts`).
 */
export class PrimaryAddress implements RedisNode {
  constructor(
    readonly name: string,
    private readonly current: () => RedisServerNode,
    private readonly wait: WaitAfterWrites | null,
    /**
     * Whether client `from` can keep using its connection to `node`: false when the link is
     * cut (its requests would time out and it would reconnect) or when it has heard that the
     * group switched to another primary (+switch-master from a sentinel it can reach).
     */
    private readonly usable: (from: string, node: RedisServerNode) => boolean = () => true,
  ) {}

  private pinned: { node: RedisServerNode; life: Owner } | null = null;

  /** The node this connection talks to now (reconnecting first when the old connection is gone). */
  connected(from?: string): RedisServerNode {
    const pin = this.pinned;
    const alive =
      pin && !pin.node.process.crashed && pin.node.process.owner === pin.life && pin.node.role === 'primary';
    if (pin && alive && (from === undefined || this.usable(from, pin.node))) return pin.node;
    const node = this.current();
    this.pinned = { node, life: node.process.owner };
    return node;
  }

  get id(): string {
    return this.connected().id;
  }

  get process(): Process {
    return this.connected().process;
  }

  get server(): RedisServer {
    return this.connected().server;
  }

  resolve(_argv?: readonly string[], from?: string): RedisNode {
    const node: RedisNode = this.connected(from);
    return this.wait ? waitingConnection(node, this.wait) : node;
  }

  execute(argv: string[], from: string, msg: number, respond?: (reply: Reply) => void): void {
    this.resolve().execute(argv, from, msg, respond);
  }
}

/** True for commands a client follows with WAIT: writes and scripts. */
export function isWrite(argv: readonly string[]): boolean {
  const name = (argv[0] ?? '').toLowerCase();
  if (name === 'eval' || name === 'evalsha') return true;
  const resolved = resolveCommand([...argv]);
  return resolved.ok && resolved.spec.flags.write === true;
}

/** Wraps one node so that each write runs as the pipeline `<write>; WAIT n t`. */
export function waitingConnection(node: RedisNode, wait: WaitAfterWrites): RedisNode {
  const connection: RedisNode = {
    id: node.id,
    process: node.process,
    server: node.server,
    resolve: () => connection,
    execute(argv, from, msg, respond = () => {}) {
      node.execute(argv, from, msg, (reply) => {
        if (!isWrite(argv) || reply.type === 'error') return respond(reply);
        const waitArgv = ['WAIT', String(wait.replicas), String(wait.timeoutMs)];
        node.execute(waitArgv, from, msg, (acks: Reply) => respond(reply, { acks, ...wait } satisfies WaitReply));
      });
    },
  };
  return connection;
}

/**
 * A cluster-aware client's connection: like a smart client with the slot map cached, it sends
 * each command to the node serving its first key's slot. The nodes still check the slot
 * themselves, so a command whose keys span slots answers CROSSSLOT.
 */
export class ClusterAddress implements RedisNode {
  constructor(
    private readonly nodeFor: (argv: readonly string[] | undefined) => RedisNode,
    private readonly wait: WaitAfterWrites | null,
  ) {}

  get id(): string {
    return this.nodeFor(undefined).id;
  }

  get process(): Process {
    return this.nodeFor(undefined).process;
  }

  get server(): RedisServer {
    return this.nodeFor(undefined).server;
  }

  resolve(argv?: readonly string[]): RedisNode {
    const node = this.nodeFor(argv).resolve(argv);
    return this.wait ? waitingConnection(node, this.wait) : node;
  }

  execute(argv: string[], from: string, msg: number, respond?: (reply: Reply) => void): void {
    this.resolve(argv).execute(argv, from, msg, respond);
  }
}
