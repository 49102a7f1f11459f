import { array, bulk, integer, nil, ok, error, type Reply } from '../reply';
import { errors, invalidExpireTime, wrongArity } from '../errors';
import { lookupTyped, type CommandContext, type CommandSpec } from '../command';
import { INT64_MAX, INT64_MIN, parseInt64 } from '../numbers';

/** String commands: SET (all 7.0 options), GET, GETDEL, SETNX, MGET, MSET, INCR family. */

const enum SetFlag {
  NX = 1,
  XX = 2,
  GET = 4,
  KEEPTTL = 8,
  EX = 16,
  PX = 32,
  EXAT = 64,
  PXAT = 128,
}
const EXPIRE_FLAGS = SetFlag.EX | SetFlag.PX | SetFlag.EXAT | SetFlag.PXAT;

/** SET's option words, by flag, under the spellings clients send: all lower and all upper case. */
const SET_OPTIONS = new Map<string, number>();
for (const [word, flag] of [
  ['nx', SetFlag.NX],
  ['xx', SetFlag.XX],
  ['get', SetFlag.GET],
  ['keepttl', SetFlag.KEEPTTL],
  ['ex', SetFlag.EX],
  ['px', SetFlag.PX],
  ['exat', SetFlag.EXAT],
  ['pxat', SetFlag.PXAT],
] as const) {
  SET_OPTIONS.set(word, flag);
  SET_OPTIONS.set(word.toUpperCase(), flag);
}

/**
 * The flag of one SET option word (any case), or 0 for any other word. The usual spellings
 * are found directly: lower-casing every option of every SET allocated a string per option.
 */
function setOptionFlag(word: string): number {
  return SET_OPTIONS.get(word) ?? SET_OPTIONS.get(word.toLowerCase()) ?? 0;
}

/**
 * True for a positive decimal of at most 12 digits: even times 1000 it stays exact as a
 * double. A loop over the characters, as this runs for every SET with a TTL.
 */
function isShortPositive(text: string): boolean {
  if (text.length === 0 || text.length > 12) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x39 || code < (i === 0 ? 0x31 : 0x30)) return false;
  }
  return true;
}

/** Parses SET's options in Redis's order of checks; returns flags and the expire argument. */
function parseSetOptions(argv: string[]): { flags: number; expire: string | null } | null {
  let flags = 0;
  let expire: string | null = null;
  for (let j = 3; j < argv.length; j++) {
    const flag = setOptionFlag(argv[j] as string);
    const hasNext = j < argv.length - 1;
    const timeFlag = flag & EXPIRE_FLAGS;
    if (flag === SetFlag.NX && !(flags & SetFlag.XX)) flags |= SetFlag.NX;
    else if (flag === SetFlag.XX && !(flags & SetFlag.NX)) flags |= SetFlag.XX;
    else if (flag === SetFlag.GET) flags |= SetFlag.GET;
    else if (flag === SetFlag.KEEPTTL && !(flags & EXPIRE_FLAGS)) flags |= SetFlag.KEEPTTL;
    else if (timeFlag !== 0 && hasNext && !(flags & SetFlag.KEEPTTL) && !(flags & (EXPIRE_FLAGS & ~timeFlag))) {
      flags |= timeFlag;
      expire = argv[j + 1] as string;
      j++;
    } else return null;
  }
  return { flags, expire };
}

/** Turns SET's expire argument into an absolute unix-ms time, or an error reply. */
function absoluteExpiry(ctx: CommandContext, flags: number, text: string): number | Reply {
  // The usual case (PX 10000) needs no 64-bit arithmetic: every step below is exact in a double.
  if (isShortPositive(text)) {
    let ms = Number(text);
    if (flags & (SetFlag.EX | SetFlag.EXAT)) ms *= 1000;
    if (flags & (SetFlag.EX | SetFlag.PX)) ms += ctx.now();
    // A clock far out (jumped by years) could leave the exact range: then the bigint path decides.
    if (Number.isSafeInteger(ms)) return ms <= 0 ? invalidExpireTime('set') : ms;
  }
  const parsed = parseInt64(text);
  if (parsed === null) return errors.notInteger;
  const seconds = (flags & (SetFlag.EX | SetFlag.EXAT)) !== 0;
  if (parsed <= 0n || (seconds && parsed > INT64_MAX / 1000n)) return invalidExpireTime('set');
  let ms = seconds ? parsed * 1000n : parsed;
  if (flags & (SetFlag.EX | SetFlag.PX)) ms = BigInt.asIntN(64, ms + BigInt(ctx.now()));
  if (ms <= 0n) return invalidExpireTime('set');
  return Number(ms);
}

function set(ctx: CommandContext): Reply {
  const [, key, value] = ctx.argv as [string, string, string];
  const options = parseSetOptions(ctx.argv);
  if (options === null) return errors.syntax;
  const { flags, expire } = options;
  let expiresAtMs: number | null = null;
  if (expire !== null) {
    const result = absoluteExpiry(ctx, flags, expire);
    if (typeof result !== 'number') return result;
    expiresAtMs = result;
  }
  let reply: Reply = ok;
  if (flags & SetFlag.GET) {
    const old = lookupTyped(ctx.db, key, 'string');
    if (!old.ok) return errors.wrongType;
    reply = bulk(old.value ?? null);
  }
  const found = ctx.db.lookup(key) !== undefined;
  if ((flags & SetFlag.NX && found) || (flags & SetFlag.XX && !found)) return flags & SetFlag.GET ? reply : nil;
  ctx.db.set(key, { type: 'string', value }, (flags & SetFlag.KEEPTTL) !== 0);
  ctx.dirty();
  if (expiresAtMs !== null) {
    ctx.db.setExpiry(key, expiresAtMs);
    // Redis 7.0 replicates a relative TTL as an absolute one so replicas agree on the deadline.
    ctx.propagate(['SET', key, value, 'PXAT', String(expiresAtMs)]);
  } else {
    ctx.propagate(flags & SetFlag.KEEPTTL ? ['SET', key, value, 'KEEPTTL'] : ['SET', key, value]);
  }
  return reply;
}

function get(ctx: CommandContext): Reply {
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'string');
  return found.ok ? bulk(found.value ?? null) : errors.wrongType;
}

function getdel(ctx: CommandContext): Reply {
  const key = ctx.argv[1] as string;
  const found = lookupTyped(ctx.db, key, 'string');
  if (!found.ok) return errors.wrongType;
  if (found.value === undefined) return nil;
  ctx.db.delete(key);
  ctx.dirty();
  ctx.propagate(['DEL', key]);
  return bulk(found.value);
}

function setnx(ctx: CommandContext): Reply {
  const [, key, value] = ctx.argv as [string, string, string];
  if (ctx.db.lookup(key) !== undefined) return integer(0);
  ctx.db.set(key, { type: 'string', value });
  ctx.dirty();
  return integer(1);
}

/**
 * `text` as a number when it is an integer in Redis's strict format (an optional '-', no
 * leading zeros, nothing else) of at most 15 characters, else null. Such a value, plus or
 * minus one, is exact in a double, so INCR on a counter needs no BigInt arithmetic.
 */
function shortInteger(text: string): number | null {
  if (text.length === 0 || text.length > 15) return null;
  if (text === '0') return 0;
  const first = text.charCodeAt(0) === 0x2d ? 1 : 0;
  if (first === text.length) return null;
  for (let i = first; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x39 || code < (i === first ? 0x31 : 0x30)) return null;
  }
  return Number(text);
}

/** Adds `by` to the integer at key; keeps the TTL, like Redis's in-place update. */
function incrementBy(ctx: CommandContext, by: bigint): Reply {
  const key = ctx.argv[1] as string;
  const found = lookupTyped(ctx.db, key, 'string');
  if (!found.ok) return errors.wrongType;
  // The usual case, a counter (a fencing token) stepped by one, is worked out in doubles.
  const small = by === 1n || by === -1n ? (found.value === undefined ? 0 : shortInteger(found.value)) : null;
  if (small !== null) {
    const next = small + Number(by);
    ctx.db.set(key, { type: 'string', value: String(next) }, true);
    ctx.dirty();
    return integer(next);
  }
  const current = found.value === undefined ? 0n : parseInt64(found.value);
  if (current === null) return errors.notInteger;
  if ((by < 0n && current < 0n && by < INT64_MIN - current) || (by > 0n && current > 0n && by > INT64_MAX - current)) {
    return errors.overflow;
  }
  const next = current + by;
  ctx.db.set(key, { type: 'string', value: String(next) }, true);
  ctx.dirty();
  return integer(next);
}

function incrby(ctx: CommandContext): Reply {
  const by = parseInt64(ctx.argv[2] as string);
  return by === null ? errors.notInteger : incrementBy(ctx, by);
}

function decrby(ctx: CommandContext): Reply {
  const by = parseInt64(ctx.argv[2] as string);
  if (by === null) return errors.notInteger;
  if (by === INT64_MIN) return error('ERR decrement would overflow');
  return incrementBy(ctx, -by);
}

function mget(ctx: CommandContext): Reply {
  return array(
    ctx.argv.slice(1).map((key) => {
      const entry = ctx.db.lookup(key);
      return entry?.value.type === 'string' ? bulk(entry.value.value) : nil;
    }),
  );
}

function mset(ctx: CommandContext): Reply {
  if (ctx.argv.length % 2 === 0) return wrongArity('mset');
  for (let j = 1; j < ctx.argv.length; j += 2) {
    ctx.db.set(ctx.argv[j] as string, { type: 'string', value: ctx.argv[j + 1] as string });
  }
  ctx.dirty((ctx.argv.length - 1) / 2);
  return ok;
}

const W = { write: true };
const WD = { write: true, denyoom: true };

/** The string family's table entries. */
export const stringCommands: CommandSpec[] = [
  { name: 'set', arity: -3, flags: WD, run: set },
  { name: 'get', arity: 2, flags: { readonly: true }, run: get },
  { name: 'getdel', arity: 2, flags: W, run: getdel },
  { name: 'setnx', arity: 3, flags: WD, run: setnx },
  { name: 'incr', arity: 2, flags: WD, run: (ctx) => incrementBy(ctx, 1n) },
  { name: 'decr', arity: 2, flags: WD, run: (ctx) => incrementBy(ctx, -1n) },
  { name: 'incrby', arity: 3, flags: WD, run: incrby },
  { name: 'decrby', arity: 3, flags: WD, run: decrby },
  { name: 'mget', arity: -2, flags: { readonly: true }, run: mget },
  { name: 'mset', arity: -3, flags: WD, run: mset },
];
