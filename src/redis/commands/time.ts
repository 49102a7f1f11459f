import { array, bulk, type Reply } from '../reply';
import type { CommandContext, CommandSpec } from '../command';

/**
 * TIME: the node's clock as two strings, Unix seconds and the microseconds within that second.
 * The simulated clock counts milliseconds, so the microseconds always end in 000. Scripts may
 * call it (Redis 7 replicates a script's effects, not the script), which is how a semaphore
 * script learns the time without trusting the client's clock; inside a script every call sees
 * the same moment, as `now()` is frozen while a script runs.
 */
function time(ctx: CommandContext): Reply {
  const nowMs = Math.floor(ctx.now());
  const seconds = Math.floor(nowMs / 1000);
  return array([bulk(String(seconds)), bulk(String((nowMs - seconds * 1000) * 1000))]);
}

/** TIME's table entry. */
export const timeCommands: CommandSpec[] = [{ name: 'time', arity: 1, flags: { readonly: true }, run: time }];
