import Redis, { Command } from 'ioredis';
import { commandLabel } from '../actors/recipes/lockScripts';
import { refusalOf } from '../actors/client/rpc';
import { isWrite } from '../actors/server/replicationAddress';
import { asReply } from './replies';
import type { ClientConfig, Report } from './protocol';

/** A Redis node as a real client reaches it: its id in the trace and one ioredis connection. */
export interface Master {
  /** The node the connection talks to (with Sentinel, the one it last connected to). */
  readonly id: string;
  /**
   * The connection commands go on; replaced when a command on it timed out (see `asker`), except
   * one that follows Sentinel, which keeps its own failover handling (followPrimary).
   */
  redis: Redis;
  readonly followsSentinel?: true;
}

/**
 * Redis's answer to one command; null when none came in time (or ever: lost in flight with a
 * crash). `refusal`: the write went through but WAIT counted too few replicas, so the client
 * library does not count it (and gives the key back when `releaseRefused`).
 */
export type Answer = { reply: unknown; refusal?: string; releaseRefused?: boolean } | null;

/** Sends one command to one master and waits at most `timeoutRealMs` (null: for ever) for its answer. */
export type Ask = (master: Master, argv: string[], timeoutRealMs: number | null) => Promise<Answer>;

/**
 * One connection to a master. A command in flight when Redis dies is not sent again after the
 * reconnect: it gets no answer, as a message to a crashed node in the simulator is dropped. A
 * command issued while the connection is down waits for the reconnect (ioredis's offline queue,
 * its default): a real client asking just after Redis came back must not lose its request to its
 * own reconnecting, and one asking a master that stays down waits out its timeout, as it would
 * for a node that does not answer in the simulator.
 */
export function connectMaster(id: string, port: number): Master {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: null,
    retryStrategy: () => 10,
    // Ready once connected: a node behind a partition (linkProxy.ts) never answers INFO, nor the
    // CLIENT SETINFO that ioredis would otherwise wait for (Redis 7.0 does not know it anyway).
    enableReadyCheck: false,
    disableClientInfo: true,
  });
  redis.on('error', () => undefined);
  return { id, redis };
}

/**
 * One connection to whichever node group `name`'s sentinels call the primary, as real code
 * has it with ioredis's Sentinel support: it asks a sentinel for the primary's address when it
 * connects and whenever the connection breaks (a crash). Until the switch, the sentinels still
 * name the dead primary, so a command waits for a connection that never comes and runs into its
 * timeout, as a request to a crashed node does in the simulator. When a sentinel announces
 * `+switch-master`, a connection still open to another node is dropped and made again, as the
 * simulator's Sentinel-aware client does (PrimaryAddress). That is what ioredis's own
 * `failoverDetector` does, but it also fires while the client is reconnecting, and then
 * ioredis 5.11 never tries again: in four of nine runs a client never reached the promoted
 * replica. So the announcements are heard here, and a connection is only dropped when it is up.
 */
export function followPrimary(sentinel: NonNullable<ClientConfig['sentinel']>, firstId: string): Master {
  // A node as the sentinels name it, and the port this client reaches it at.
  const reach = (announcedPort: number) => sentinel.nodes.find((n) => n.announced === announcedPort)?.port;
  const redis = new Redis({
    sentinels: sentinel.ports.map((port) => ({ host: '127.0.0.1', port })),
    natMap: (key: string) => {
      const port = reach(Number(key.split(':')[1]));
      return port === undefined ? null : { host: '127.0.0.1', port };
    },
    name: sentinel.name,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: null,
    retryStrategy: () => 10,
    sentinelRetryStrategy: () => 10,
    enableReadyCheck: false,
    disableClientInfo: true,
  });
  redis.on('error', () => undefined);
  let id = firstId;
  redis.on('connect', () => (id = sentinel.nodes.find((n) => n.port === redis.stream.remotePort)?.id ?? id));
  const listeners = sentinel.ports.map((port) => {
    const listener = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: null, retryStrategy: () => 100 });
    listener.on('error', () => undefined);
    void listener.subscribe('+switch-master').catch(() => undefined);
    // `<name> <old ip> <old port> <new ip> <new port>`
    listener.on('message', (_channel: string, message: string) => {
      const newPort = reach(Number(message.split(' ')[4]));
      if (redis.status === 'ready' && redis.stream.remotePort !== newPort) redis.disconnect(true);
    });
    return listener;
  });
  redis.once('end', () => listeners.forEach((l) => l.disconnect()));
  return {
    get id() {
      return id;
    },
    redis,
    followsSentinel: true,
  };
}

const never = new Promise<never>(() => undefined);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Connections with a command on them that has neither been answered nor timed out. */
const busy = new WeakSet<Redis>();

/**
 * A connection for one command: the master's own, or, while a command on it is still out (a
 * renewal and a release can overlap), a second one closed after its answer. One command per
 * connection at a time is what makes a lost reply safe: ioredis pairs replies with commands in
 * order, so a reply the network dropped (linkProxy.ts) would have the next command on the same
 * connection take the reply meant for the one after it.
 */
function connectionFor(master: Master): Redis {
  return busy.has(master.redis) ? another(master.redis) : master.redis;
}

/** A new connection to the same node, with the same options. */
function another(redis: Redis): Redis {
  const fresh = redis.duplicate();
  fresh.on('error', () => undefined);
  return fresh;
}

/**
 * The client `actor`'s way to ask: each command and its reply are reported as the simulator's
 * messages (`net.send` there and back, `request.timeout` when none came), numbered per client.
 * An error reply (a wrong command, CROSSSLOT, READONLY, …) is an answer; any other failure of the
 * connection is silence, left to the timeout.
 *
 * A command that timed out takes its connection with it: the client closes it and asks on a new
 * one from then on, as redis-py and Jedis do with a connection that timed out. Over TCP a reply
 * is only ever lost with its connection, so this is the real counterpart of the simulator's
 * rule that a reply arriving after its timeout is discarded (`request.late`): it never answers a
 * later command. What was already sent on the closed connection still reaches Redis (the proxy
 * carries it before closing its side), as a message already on the wire does in the simulator.
 */
export function asker(actor: string, report: (r: Report) => void, wait?: ClientConfig['wait']): Ask {
  let messages = 0;
  return async (master, argv, timeoutRealMs) => {
    const msg = ++messages;
    const label = commandLabel(argv);
    const connection = connectionFor(master);
    busy.add(connection);
    report({ kind: 'net.send', actor, data: { msg, to: master.id, label } });
    const command = new Command(argv[0]!, argv.slice(1), { replyEncoding: 'utf8' });
    const call = (connection.sendCommand(command) as Promise<unknown>).then(
      (reply) => (wait && isWrite(argv) ? waited(connection, reply, wait) : { reply }),
      (error: Error) => (error.name === 'ReplyError' ? { reply: error } : never),
    );
    const timeout = timeoutRealMs === null ? never : sleep(timeoutRealMs).then(() => null);
    const answer = await Promise.race([call, timeout]);
    busy.delete(connection);
    if (answer === null) {
      report({ kind: 'request.timeout', actor, data: { msg, to: master.id, label } });
      abandon(connection, command);
      // A Sentinel-following connection keeps its failover handling, so it is made again in
      // place, asking Sentinel anew: a link proxy may have dropped the reply (a partition), and
      // the next reply on this connection would then answer the abandoned command. One still
      // reconnecting (its node died) is left to ioredis.
      if (master.followsSentinel && connection === master.redis) {
        if (connection.status === 'ready') connection.disconnect(true);
        return answer;
      }
      if (connection === master.redis) master.redis = another(connection);
      connection.disconnect();
    } else {
      report({ kind: 'net.send', actor: master.id, data: { msg, to: actor, label: 'reply' } });
      if (connection !== master.redis) connection.disconnect();
    }
    return answer;
  };
}

/**
 * A write's answer once `WAIT replicas timeout` has followed it on the same connection, as the
 * simulator's client pipelines them (replicationAddress.ts), read by the simulator's own client
 * library (rpc.ts): fewer acknowledgements than asked for are its refusal.
 */
async function waited(connection: Redis, reply: unknown, wait: NonNullable<ClientConfig['wait']>): Promise<Answer> {
  const acks = asReply(await connection.call('WAIT', String(wait.replicas), String(wait.timeoutRealMs)));
  return {
    reply,
    ...refusalOf({ acks, replicas: wait.replicas, timeoutMs: wait.timeoutRealMs, releaseRefused: wait.releaseRefused }),
  };
}

/**
 * Takes a command the client gave up on out of ioredis's offline queue, if it is still waiting
 * there for a connection: sent on the next connect, it would take a lock its client no longer
 * waits for (with Sentinel, on the promoted replica), where the simulator's dropped request
 * does nothing. The queue is ioredis's own (not in its types).
 */
function abandon(redis: Redis, command: Command): void {
  const queue = (
    redis as unknown as { offlineQueue: { toArray(): { command: Command }[]; removeOne(i: number): void } }
  ).offlineQueue;
  const index = queue.toArray().findIndex((item) => item.command === command);
  if (index >= 0) queue.removeOne(index);
}
