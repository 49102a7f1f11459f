import { error, integer, type Reply } from '../reply';
import { errors } from '../errors';
import { lookupTyped, type CommandContext, type CommandSpec } from '../command';
import { inScoreRange, parseScoreRange } from './zsetRanges';

/**
 * ZREMRANGEBYSCORE: removes every member whose score falls in the range (the same bounds as
 * ZRANGE BYSCORE: `(` for exclusive, `-inf`, `+inf`). A semaphore prunes its expired holders with it.
 */
function zremrangebyscore(ctx: CommandContext): Reply {
  const key = ctx.argv[1] as string;
  // Redis parses the range before it looks at the key: a bad range on a missing key is still an error.
  const range = parseScoreRange(ctx.argv[2] as string, ctx.argv[3] as string);
  if (range === null) return error('ERR min or max is not a float');
  const found = lookupTyped(ctx.db, key, 'zset');
  if (!found.ok) return errors.wrongType;
  if (!found.value) return integer(0);
  let removed = 0;
  for (const { member, score } of [...found.value.entries()]) {
    if (inScoreRange(range, score) && found.value.remove(member)) removed++;
  }
  if (found.value.size === 0) ctx.db.delete(key);
  ctx.dirty(removed);
  return integer(removed);
}

/** The sorted-set removal commands' table entries. */
export const zsetRemoveCommands: CommandSpec[] = [
  { name: 'zremrangebyscore', arity: 4, flags: { write: true }, run: zremrangebyscore },
];
