import { array, bulk, integer, nil, error, type Reply } from '../reply';
import { errors, wrongArity } from '../errors';
import { lookupTyped, type CommandContext, type CommandSpec } from '../command';
import { parseInt64 } from '../numbers';

/** List commands: LPUSH, RPUSH, LPOP, LRANGE, LREM, LINDEX, LLEN. */

function push(ctx: CommandContext, left: boolean): Reply {
  const key = ctx.argv[1] as string;
  const found = lookupTyped(ctx.db, key, 'list');
  if (!found.ok) return errors.wrongType;
  const list = found.value ?? [];
  if (!found.value) ctx.db.set(key, { type: 'list', value: list });
  for (const element of ctx.argv.slice(2)) {
    if (left) list.unshift(element);
    else list.push(element);
  }
  ctx.dirty(ctx.argv.length - 2);
  return integer(list.length);
}

function lpop(ctx: CommandContext): Reply {
  if (ctx.argv.length > 3) return wrongArity('lpop');
  const key = ctx.argv[1] as string;
  const hasCount = ctx.argv.length === 3;
  let count = 0;
  if (hasCount) {
    const parsed = parseInt64(ctx.argv[2] as string);
    if (parsed === null || parsed < 0n) return error('ERR value is out of range, must be positive');
    count = Number(parsed);
  }
  const found = lookupTyped(ctx.db, key, 'list');
  if (!found.ok) return errors.wrongType;
  if (!found.value) return hasCount ? array(null) : nil;
  if (hasCount && count === 0) return array([]);
  const taken = found.value.splice(0, hasCount ? count : 1);
  if (found.value.length === 0) ctx.db.delete(key);
  ctx.dirty(taken.length);
  return hasCount ? array(taken.map(bulk)) : bulk(taken[0] ?? null);
}

function parseLong(text: string): number | null {
  const parsed = parseInt64(text);
  return parsed === null ? null : Number(parsed);
}

function lrange(ctx: CommandContext): Reply {
  let start = parseLong(ctx.argv[2] as string);
  let end = parseLong(ctx.argv[3] as string);
  if (start === null || end === null) return errors.notInteger;
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'list');
  if (!found.ok) return errors.wrongType;
  const list = found.value ?? [];
  const length = list.length;
  if (start < 0) start = length + start;
  if (end < 0) end = length + end;
  if (start < 0) start = 0;
  if (start > end || start >= length) return array([]);
  return array(list.slice(start, Math.min(end, length - 1) + 1).map(bulk));
}

function lrem(ctx: CommandContext): Reply {
  const key = ctx.argv[1] as string;
  const count = parseLong(ctx.argv[2] as string);
  if (count === null) return errors.notInteger;
  const element = ctx.argv[3] as string;
  const found = lookupTyped(ctx.db, key, 'list');
  if (!found.ok) return errors.wrongType;
  const list = found.value;
  if (!list) return integer(0);
  let removed = 0;
  const limit = count === 0 ? Infinity : Math.abs(count);
  if (count >= 0) {
    for (let i = 0; i < list.length && removed < limit;) {
      if (list[i] === element) {
        list.splice(i, 1);
        removed++;
      } else i++;
    }
  } else {
    for (let i = list.length - 1; i >= 0 && removed < limit; i--) {
      if (list[i] === element) {
        list.splice(i, 1);
        removed++;
      }
    }
  }
  if (list.length === 0) ctx.db.delete(key);
  ctx.dirty(removed);
  return integer(removed);
}

/** LINDEX looks the key up before it parses the index, so a missing key answers nil even for "x". */
function lindex(ctx: CommandContext): Reply {
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'list');
  if (!found.ok) return errors.wrongType;
  const list = found.value;
  if (!list) return nil;
  const index = parseLong(ctx.argv[2] as string);
  if (index === null) return errors.notInteger;
  const at = index < 0 ? list.length + index : index;
  return bulk(list[at] ?? null);
}

function llen(ctx: CommandContext): Reply {
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'list');
  if (!found.ok) return errors.wrongType;
  return integer(found.value?.length ?? 0);
}

const W = { write: true };
const WD = { write: true, denyoom: true };

/** The list family's table entries. */
export const listCommands: CommandSpec[] = [
  { name: 'lpush', arity: -3, flags: WD, run: (ctx) => push(ctx, true) },
  { name: 'rpush', arity: -3, flags: WD, run: (ctx) => push(ctx, false) },
  { name: 'lpop', arity: -2, flags: W, run: lpop },
  { name: 'lrange', arity: 4, flags: { readonly: true }, run: lrange },
  { name: 'lrem', arity: 4, flags: W, run: lrem },
  { name: 'lindex', arity: 3, flags: { readonly: true }, run: lindex },
  { name: 'llen', arity: 2, flags: { readonly: true }, run: llen },
];
