import Redis from 'ioredis';
import { commandLabel } from '../actors/recipes/lockScripts';
import type { Report } from './protocol';

/** A Redis node as a real client reaches it: its id in the trace and one ioredis connection. */
export interface Master {
  id: string;
  redis: Redis;
}

/** Redis's answer to one command; null when none came in time (or ever: lost in flight with a crash). */
export type Answer = { reply: unknown } | null;

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
    // Ready once connected: a node behind a partition (blackHole.ts) never answers INFO, nor the
    // CLIENT SETINFO that ioredis would otherwise wait for (Redis 7.0 does not know it anyway).
    enableReadyCheck: false,
    disableClientInfo: true,
  });
  redis.on('error', () => undefined);
  return { id, redis };
}

const never = new Promise<never>(() => undefined);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The client `actor`'s way to ask: each command and its reply are reported as the simulator's
 * messages (`net.send` there and back, `request.timeout` when none came), numbered per client.
 * An error reply that names a wrong command is an answer; any other failure of the connection is
 * silence, left to the timeout.
 */
export function asker(actor: string, report: (r: Report) => void): Ask {
  let messages = 0;
  return async (master, argv, timeoutRealMs) => {
    const msg = ++messages;
    const label = commandLabel(argv);
    report({ kind: 'net.send', actor, data: { msg, to: master.id, label } });
    const call = master.redis.call(argv[0]!, ...argv.slice(1)).then(
      (reply) => ({ reply }),
      (error: Error) => (/^(ERR|WRONGTYPE|NOSCRIPT)/.test(error.message) ? { reply: error } : never),
    );
    const timeout = timeoutRealMs === null ? never : sleep(timeoutRealMs).then(() => null);
    const answer = await Promise.race([call, timeout]);
    if (answer === null) report({ kind: 'request.timeout', actor, data: { msg, to: master.id, label } });
    else report({ kind: 'net.send', actor: master.id, data: { msg, to: actor, label: 'reply' } });
    return answer;
  };
}
