import { integer, error, type Reply } from '../reply';
import { errors, invalidExpireTime } from '../errors';
import type { CommandContext, CommandSpec } from '../command';
import { INT64_MAX, INT64_MIN, parseInt64 } from '../numbers';

/** Expiry commands: EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT (NX XX GT LT), TTL, PTTL, PERSIST. */

const enum Cond {
  NX = 1,
  XX = 2,
  GT = 4,
  LT = 8,
}

function parseConditions(argv: string[]): number | Reply {
  let flags = 0;
  for (let j = 3; j < argv.length; j++) {
    const opt = (argv[j] as string).toLowerCase();
    const flag = { nx: Cond.NX, xx: Cond.XX, gt: Cond.GT, lt: Cond.LT }[opt];
    if (flag === undefined) return error(`ERR Unsupported option ${argv[j]}`);
    flags |= flag;
  }
  if (flags & Cond.NX && flags & (Cond.XX | Cond.GT | Cond.LT)) {
    return error('ERR NX and XX, GT or LT options at the same time are not compatible');
  }
  if (flags & Cond.GT && flags & Cond.LT) return error('ERR GT and LT options at the same time are not compatible');
  return flags;
}

/** The invalid-expire-time error, naming the command as Redis does (lower case). */
function invalidExpire(ctx: CommandContext): Reply {
  // Worked out only when needed: lower-casing the name on every EXPIRE was wasted work.
  return invalidExpireTime((ctx.argv[0] as string).toLowerCase());
}

/** Shared body of the four EXPIRE commands, following Redis's `expireGenericCommand`. */
function expireGeneric(ctx: CommandContext, relative: boolean, seconds: boolean): Reply {
  const key = ctx.argv[1] as string;
  const flags = parseConditions(ctx.argv);
  if (typeof flags !== 'number') return flags;
  const parsed = parseInt64(ctx.argv[2] as string);
  if (parsed === null) return errors.notInteger;
  let when = parsed;
  if (seconds) {
    if (when > INT64_MAX / 1000n || when < INT64_MIN / 1000n) return invalidExpire(ctx);
    when *= 1000n;
  }
  // The node's clock cannot move during a command, so it is read (and made a BigInt) once.
  const nowMs = BigInt(ctx.now());
  const base = relative ? nowMs : 0n;
  if (when > INT64_MAX - base) return invalidExpire(ctx);
  when += base;
  const entry = ctx.db.lookup(key);
  if (entry === undefined) return integer(0);
  const current = entry.expiresAtMs === null ? null : BigInt(entry.expiresAtMs);
  if (flags & Cond.NX && current !== null) return integer(0);
  if (flags & Cond.XX && current === null) return integer(0);
  // No TTL counts as an infinite one: GT never beats it, LT always does.
  if (flags & Cond.GT && (current === null || when <= current)) return integer(0);
  if (flags & Cond.LT && current !== null && when >= current) return integer(0);
  ctx.dirty();
  if (when <= nowMs && ctx.db.expiresKeys) {
    ctx.db.delete(key);
    ctx.propagate(['DEL', key]);
    return integer(1);
  }
  ctx.db.setExpiry(key, Number(when));
  ctx.propagate(['PEXPIREAT', key, String(when)]);
  return integer(1);
}

/** TTL/PTTL: -2 missing, -1 no TTL, seconds rounded as (ms + 500) / 1000. */
function ttlGeneric(ctx: CommandContext, ms: boolean): Reply {
  const entry = ctx.db.lookup(ctx.argv[1] as string);
  if (entry === undefined) return integer(-2);
  if (entry.expiresAtMs === null) return integer(-1);
  const left = Math.max(0, entry.expiresAtMs - ctx.now());
  return integer(ms ? left : Math.floor((left + 500) / 1000));
}

function persist(ctx: CommandContext): Reply {
  const key = ctx.argv[1] as string;
  const entry = ctx.db.lookup(key);
  if (entry === undefined || entry.expiresAtMs === null) return integer(0);
  ctx.db.setExpiry(key, null);
  ctx.dirty();
  return integer(1);
}

const W = { write: true };

/** The expiry family's table entries. */
export const expireCommands: CommandSpec[] = [
  { name: 'expire', arity: -3, flags: W, run: (ctx) => expireGeneric(ctx, true, true) },
  { name: 'pexpire', arity: -3, flags: W, run: (ctx) => expireGeneric(ctx, true, false) },
  { name: 'expireat', arity: -3, flags: W, run: (ctx) => expireGeneric(ctx, false, true) },
  { name: 'pexpireat', arity: -3, flags: W, run: (ctx) => expireGeneric(ctx, false, false) },
  { name: 'ttl', arity: 2, flags: { readonly: true }, run: (ctx) => ttlGeneric(ctx, false) },
  { name: 'pttl', arity: 2, flags: { readonly: true }, run: (ctx) => ttlGeneric(ctx, true) },
  { name: 'persist', arity: 2, flags: W, run: persist },
];
