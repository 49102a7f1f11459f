import { array, bulk, error, integer, type Reply } from '../reply';
import { errors, wrongArity } from '../errors';
import { lookupTyped, type CommandContext, type CommandSpec } from '../command';
import { INT64_MAX, INT64_MIN, parseInt64 } from '../numbers';

/**
 * Hash commands. A Map keeps insertion order, which is what a small (listpack-encoded) hash
 * in Redis returns from HGETALL; big hashes in Redis come back in hash-table order instead.
 */

function hashFor(ctx: CommandContext, key: string): Map<string, string> | Reply {
  const found = lookupTyped(ctx.db, key, 'hash');
  if (!found.ok) return errors.wrongType;
  if (found.value) return found.value;
  const created = new Map<string, string>();
  ctx.db.set(key, { type: 'hash', value: created });
  return created;
}

function hset(ctx: CommandContext): Reply {
  if (ctx.argv.length % 2 === 1) return wrongArity('hset');
  const hash = hashFor(ctx, ctx.argv[1] as string);
  if (!(hash instanceof Map)) return hash;
  let created = 0;
  for (let j = 2; j < ctx.argv.length; j += 2) {
    const field = ctx.argv[j] as string;
    if (!hash.has(field)) created++;
    hash.set(field, ctx.argv[j + 1] as string);
  }
  ctx.dirty((ctx.argv.length - 2) / 2);
  return integer(created);
}

function hget(ctx: CommandContext): Reply {
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'hash');
  if (!found.ok) return errors.wrongType;
  return bulk(found.value?.get(ctx.argv[2] as string) ?? null);
}

function hdel(ctx: CommandContext): Reply {
  const key = ctx.argv[1] as string;
  const found = lookupTyped(ctx.db, key, 'hash');
  if (!found.ok) return errors.wrongType;
  if (!found.value) return integer(0);
  let removed = 0;
  for (const field of ctx.argv.slice(2)) {
    if (found.value.delete(field)) removed++;
    if (found.value.size === 0) break;
  }
  // Redis never keeps an empty hash: removing the last field removes the key.
  if (found.value.size === 0) ctx.db.delete(key);
  ctx.dirty(removed);
  return integer(removed);
}

function hexists(ctx: CommandContext): Reply {
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'hash');
  if (!found.ok) return errors.wrongType;
  return integer(found.value?.has(ctx.argv[2] as string) ? 1 : 0);
}

function hincrby(ctx: CommandContext): Reply {
  const by = parseInt64(ctx.argv[3] as string);
  if (by === null) return errors.notInteger;
  const hash = hashFor(ctx, ctx.argv[1] as string);
  if (!(hash instanceof Map)) return hash;
  const field = ctx.argv[2] as string;
  const text = hash.get(field);
  const current = text === undefined ? 0n : parseInt64(text);
  if (current === null) return error('ERR hash value is not an integer');
  if ((by < 0n && current < 0n && by < INT64_MIN - current) || (by > 0n && current > 0n && by > INT64_MAX - current)) {
    return errors.overflow;
  }
  const next = current + by;
  hash.set(field, String(next));
  ctx.dirty();
  return integer(next);
}

function hgetall(ctx: CommandContext): Reply {
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'hash');
  if (!found.ok) return errors.wrongType;
  const out: Reply[] = [];
  for (const [field, value] of found.value ?? []) out.push(bulk(field), bulk(value));
  return array(out);
}

function hlen(ctx: CommandContext): Reply {
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'hash');
  if (!found.ok) return errors.wrongType;
  return found.value ? integer(found.value.size) : integer(0);
}

const W = { write: true };
const WD = { write: true, denyoom: true };

/** The hash family's table entries. */
export const hashCommands: CommandSpec[] = [
  { name: 'hset', arity: -4, flags: WD, run: hset },
  { name: 'hget', arity: 3, flags: { readonly: true }, run: hget },
  { name: 'hdel', arity: -3, flags: W, run: hdel },
  { name: 'hexists', arity: 3, flags: { readonly: true }, run: hexists },
  { name: 'hincrby', arity: 4, flags: WD, run: hincrby },
  { name: 'hgetall', arity: 2, flags: { readonly: true }, run: hgetall },
  { name: 'hlen', arity: 2, flags: { readonly: true }, run: hlen },
];
