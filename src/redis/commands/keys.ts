import { array, bulk, integer, status, error, type Reply } from '../reply';
import { errors } from '../errors';
import type { CommandContext, CommandSpec } from '../command';
import { globMatch } from '../glob';
import { parseInt64 } from '../numbers';

/** Keyspace commands: DEL, UNLINK, EXISTS, TYPE, KEYS, SCAN, DBSIZE. */

function del(ctx: CommandContext): Reply {
  let removed = 0;
  for (const key of ctx.argv.slice(1)) {
    if (ctx.db.lookup(key) !== undefined && ctx.db.delete(key)) removed++;
  }
  ctx.dirty(removed);
  return integer(removed);
}

function exists(ctx: CommandContext): Reply {
  return integer(ctx.argv.slice(1).filter((key) => ctx.db.lookup(key) !== undefined).length);
}

function type(ctx: CommandContext): Reply {
  return status(ctx.db.lookup(ctx.argv[1] as string)?.value.type ?? 'none');
}

/** Keys matching a glob; expired keys are skipped (and reclaimed, as Redis's KEYS does). */
function keys(ctx: CommandContext): Reply {
  const pattern = ctx.argv[1] as string;
  const out: Reply[] = [];
  for (const key of ctx.db.keys()) {
    if ((pattern === '*' || globMatch(pattern, key)) && ctx.db.lookup(key) !== undefined) out.push(bulk(key));
  }
  return array(out);
}

/** Redis's cursor parse (`strtoul`, no leading space, must consume everything, 64-bit). */
function parseCursor(text: string): bigint | null {
  const match = /^[+-]?[0-9]+$/.exec(text);
  if (!match) return null;
  let value = BigInt(text.replace(/^\+/, ''));
  const magnitude = value < 0n ? -value : value;
  if (magnitude > 2n ** 64n - 1n) return null;
  if (value < 0n) value = 2n ** 64n + value;
  return value;
}

/**
 * SCAN over the keys in storage order. The cursor is a plain position rather than Redis's
 * reverse-binary bucket index, so cursors differ from a real server's once the keyspace
 * outgrows one page; a small keyspace comes back whole with cursor 0, as it does in Redis.
 */
function scan(ctx: CommandContext): Reply {
  const cursor = parseCursor(ctx.argv[1] as string);
  if (cursor === null) return error('ERR invalid cursor');
  let count = 10;
  let pattern: string | null = null;
  let typeFilter: string | null = null;
  for (let i = 2; i < ctx.argv.length; i += 2) {
    const option = (ctx.argv[i] as string).toLowerCase();
    const left = ctx.argv.length - i;
    if (option === 'count' && left >= 2) {
      const parsed = parseInt64(ctx.argv[i + 1] as string);
      if (parsed === null) return errors.notInteger;
      if (parsed < 1n) return errors.syntax;
      count = Number(parsed);
    } else if (option === 'match' && left >= 2) {
      // Redis skips matching for a lone `*`, so it also lists the empty key (which `**` does not).
      const match = ctx.argv[i + 1] as string;
      pattern = match === '*' ? null : match;
    } else if (option === 'type' && left >= 2) {
      typeFilter = (ctx.argv[i + 1] as string).toLowerCase();
    } else return errors.syntax;
  }
  const all = ctx.db.keys();
  const start = cursor > BigInt(all.length) ? all.length : Number(cursor);
  // A small keyspace is returned in one call, as Redis does when the table has few buckets.
  const pageSize = all.length <= count * 10 ? all.length : count;
  const page = all.slice(start, start + pageSize);
  const next = start + pageSize >= all.length ? 0 : start + pageSize;
  const out: Reply[] = [];
  for (const key of page) {
    const entry = ctx.db.lookup(key);
    if (entry === undefined) continue;
    if (pattern !== null && !globMatch(pattern, key)) continue;
    if (typeFilter !== null && entry.value.type !== typeFilter) continue;
    out.push(bulk(key));
  }
  return array([bulk(String(next)), array(out)]);
}

function dbsize(ctx: CommandContext): Reply {
  return integer(ctx.db.size);
}

const W = { write: true };

/** The key family's table entries. */
export const keyCommands: CommandSpec[] = [
  { name: 'del', arity: -2, flags: W, run: del },
  { name: 'unlink', arity: -2, flags: W, run: del },
  { name: 'exists', arity: -2, flags: { readonly: true }, run: exists },
  { name: 'type', arity: 2, flags: { readonly: true }, run: type },
  { name: 'keys', arity: 2, flags: { readonly: true }, run: keys },
  { name: 'scan', arity: -2, flags: { readonly: true }, run: scan },
  { name: 'dbsize', arity: 1, flags: { readonly: true }, run: dbsize },
];
