import { resolveCommand } from '../redis/commandTable';
import { error, type Reply } from '../redis/reply';
import type { Process } from './process';
import type { RedisNode } from './redisNode';
import type { RedisServer } from '../redis/server';

/** Follow each write with `WAIT replicas timeoutMs`, like Redisson does after every lock script. */
export interface WaitAfterWrites {
  replicas: number;
  timeoutMs: number;
}

/**
 * A client's connection that follows the primary: every request goes to whichever node
 * `current()` names as it leaves (the Sentinel group's published primary). With `wait`, each
 * write is pipelined with a WAIT on the same node, and the client hears the write's answer only
 * after WAIT's; when fewer replicas than asked acknowledged, the client library reports an
 * error (`ERR lock not replicated: ...`), so the recipe treats the lock as not taken.
 */
export class PrimaryAddress implements RedisNode {
  constructor(
    readonly name: string,
    private readonly current: () => RedisNode,
    private readonly wait: WaitAfterWrites | null,
  ) {}

  get id(): string {
    return this.current().id;
  }

  get process(): Process {
    return this.current().process;
  }

  get server(): RedisServer {
    return this.current().server;
  }

  resolve(argv?: readonly string[]): RedisNode {
    const node = this.current().resolve(argv);
    return this.wait ? waitingConnection(node, this.wait) : node;
  }

  execute(argv: string[], from: string, msg: number, respond?: (reply: Reply) => void): void {
    this.resolve().execute(argv, from, msg, respond);
  }
}

/** True for commands a client follows with WAIT: writes and scripts. */
function isWrite(argv: readonly string[]): boolean {
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
        node.execute(waitArgv, from, msg, (acks) => {
          const acked = acks.type === 'integer' ? Number(acks.value) : 0;
          if (acked >= wait.replicas) return respond(reply);
          respond(error(`ERR lock not replicated: WAIT ${wait.replicas} ${wait.timeoutMs} answered ${acked}`));
        });
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
