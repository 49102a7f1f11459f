import Redis from 'ioredis';
import { formatReply } from '../redis/cliFormat';
import { asReply } from './replies';

/**
 * A command typed at a node's console, as the simulator runs a script's `command`: sent on a
 * connection of its own (outside the scenario's network), its reply formatted as redis-cli and
 * the simulator show it. A stopped node answers nobody, there as here: null when no reply comes
 * within a second.
 */
export async function typeAtConsole(port: number, argv: readonly string[]): Promise<string | null> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
  redis.on('error', () => undefined);
  const reply = await Promise.race([
    redis.call(argv[0]!, ...argv.slice(1)).then(
      (value) => ({ value }),
      (error: Error) => ({ value: error.name === 'ReplyError' ? error : undefined }),
    ),
    new Promise<{ value: undefined }>((resolve) => setTimeout(() => resolve({ value: undefined }), 1000)),
  ]);
  redis.disconnect();
  return reply.value === undefined ? null : formatReply(asReply(reply.value));
}
