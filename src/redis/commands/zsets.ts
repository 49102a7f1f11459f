import { array, bulk, error, integer, nil, type Reply } from '../reply';
import { errors } from '../errors';
import { lookupTyped, type CommandContext, type CommandSpec } from '../command';
import { formatDouble, parseInt64, parseStrictDouble } from '../numbers';
import { SortedSet } from '../sortedSet';
import { parseLexRange, parseScoreRange, inLexRange, inScoreRange } from './zsetRanges';

/** Sorted-set commands: ZADD (NX XX GT LT CH INCR), ZRANGE (all 7.0 forms), ZREM, ZCARD, ZSCORE, ZRANK. */

function zadd(ctx: CommandContext): Reply {
  const argv = ctx.argv;
  let scoreIndex = 2;
  const opts = { nx: false, xx: false, ch: false, incr: false, gt: false, lt: false };
  while (scoreIndex < argv.length) {
    const opt = (argv[scoreIndex] as string).toLowerCase();
    if (!(opt in opts)) break;
    opts[opt as keyof typeof opts] = true;
    scoreIndex++;
  }
  const elements = argv.length - scoreIndex;
  if (elements % 2 !== 0 || elements === 0) return errors.syntax;
  const pairs = elements / 2;
  if (opts.nx && opts.xx) return error('ERR XX and NX options at the same time are not compatible');
  if ((opts.gt && opts.nx) || (opts.lt && opts.nx) || (opts.gt && opts.lt)) {
    return error('ERR GT, LT, and/or NX options at the same time are not compatible');
  }
  if (opts.incr && pairs > 1) return error('ERR INCR option supports a single increment-element pair');
  const scores: number[] = [];
  for (let j = 0; j < pairs; j++) {
    const score = parseStrictDouble(argv[scoreIndex + j * 2] as string);
    if (score === null) return errors.notFloat;
    scores.push(score);
  }
  const key = argv[1] as string;
  const found = lookupTyped(ctx.db, key, 'zset');
  if (!found.ok) return errors.wrongType;
  let zset = found.value;
  let added = 0;
  let updated = 0;
  let processed = 0;
  let lastScore = 0;
  if (!zset && !opts.xx) {
    zset = new SortedSet();
    ctx.db.set(key, { type: 'zset', value: zset });
  }
  for (let j = 0; zset && j < pairs; j++) {
    const member = argv[scoreIndex + 1 + j * 2] as string;
    let score = scores[j] as number;
    const current = zset.score(member);
    if (current !== undefined) {
      if (opts.nx) continue;
      if (opts.incr) {
        score += current;
        if (Number.isNaN(score)) return error('ERR resulting score is not a number (NaN)');
      }
      if ((opts.lt && score >= current) || (opts.gt && score <= current)) continue;
      processed++;
      lastScore = score;
      if (score !== current) {
        zset.set(member, score);
        updated++;
      }
    } else if (!opts.xx) {
      zset.set(member, score);
      added++;
      processed++;
      lastScore = score;
    }
  }
  ctx.dirty(added + updated);
  if (opts.incr) return processed ? bulk(formatDouble(lastScore === 0 ? 0 : lastScore)) : nil;
  return integer(opts.ch ? added + updated : added);
}

interface RangeOptions {
  withScores: boolean;
  reverse: boolean;
  by: 'rank' | 'score' | 'lex';
  offset: number;
  limit: number;
  limitGiven: boolean;
}

function parseRangeOptions(argv: string[]): RangeOptions | Reply {
  const options: RangeOptions = {
    withScores: false,
    reverse: false,
    by: 'rank',
    offset: 0,
    limit: -1,
    limitGiven: false,
  };
  let byGiven = false;
  for (let j = 4; j < argv.length; j++) {
    const opt = (argv[j] as string).toLowerCase();
    const left = argv.length - j - 1;
    if (opt === 'withscores') options.withScores = true;
    else if (opt === 'limit' && left >= 2) {
      const offset = parseInt64(argv[j + 1] as string);
      if (offset === null) return errors.notInteger;
      const limit = parseInt64(argv[j + 2] as string);
      if (limit === null) return errors.notInteger;
      options.offset = Number(offset);
      options.limit = Number(limit);
      options.limitGiven = true;
      j += 2;
    } else if (opt === 'rev' && !options.reverse) options.reverse = true;
    else if (opt === 'bylex' && !byGiven) {
      options.by = 'lex';
      byGiven = true;
    } else if (opt === 'byscore' && !byGiven) {
      options.by = 'score';
      byGiven = true;
    } else return errors.syntax;
  }
  if (options.limitGiven && options.by === 'rank') {
    return error('ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
  }
  if (options.withScores && options.by === 'lex') {
    return error('ERR syntax error, WITHSCORES not supported in combination with BYLEX');
  }
  return options;
}

function emit(entries: ReadonlyArray<{ member: string; score: number }>, withScores: boolean): Reply {
  const out: Reply[] = [];
  for (const entry of entries) {
    out.push(bulk(entry.member));
    if (withScores) out.push(bulk(formatDouble(entry.score)));
  }
  return array(out);
}

/** Applies LIMIT offset count the way Redis walks the range (negative offset: nothing). */
function applyLimit<T>(items: T[], offset: number, limit: number): T[] {
  if (offset < 0) return [];
  return limit < 0 ? items.slice(offset) : items.slice(offset, offset + limit);
}

function zrange(ctx: CommandContext): Reply {
  const options = parseRangeOptions(ctx.argv);
  if (!('by' in options)) return options;
  let minText = ctx.argv[2] as string;
  let maxText = ctx.argv[3] as string;
  // BYSCORE and BYLEX with REV take the range as max, min.
  if (options.reverse && options.by !== 'rank') [minText, maxText] = [maxText, minText];
  let select: (zset: SortedSet) => ReadonlyArray<{ member: string; score: number }>;
  if (options.by === 'rank') {
    const start = parseInt64(minText);
    const end = parseInt64(maxText);
    if (start === null || end === null) return errors.notInteger;
    select = (zset) => rankSlice(zset, Number(start), Number(end), options.reverse);
  } else if (options.by === 'score') {
    const range = parseScoreRange(minText, maxText);
    if (range === null) return error('ERR min or max is not a float');
    select = (zset) => {
      const items = zset.entries().filter((entry) => inScoreRange(range, entry.score));
      return applyLimit(options.reverse ? items.reverse() : items, options.offset, options.limit);
    };
  } else {
    const range = parseLexRange(minText, maxText);
    if (range === null) return error('ERR min or max not valid string range item');
    select = (zset) => {
      const items = zset.entries().filter((entry) => inLexRange(range, entry.member));
      return applyLimit(options.reverse ? items.reverse() : items, options.offset, options.limit);
    };
  }
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'zset');
  if (found.ok && !found.value) return array([]);
  if (!found.ok) return errors.wrongType;
  return emit(select(found.value as SortedSet), options.withScores);
}

function rankSlice(
  zset: SortedSet,
  start: number,
  end: number,
  reverse: boolean,
): Array<{ member: string; score: number }> {
  const length = zset.size;
  if (start < 0) start = length + start;
  if (end < 0) end = length + end;
  if (start < 0) start = 0;
  if (start > end || start >= length) return [];
  if (end >= length) end = length - 1;
  const ordered = reverse ? [...zset.entries()].reverse() : zset.entries();
  return ordered.slice(start, end + 1);
}

function zrem(ctx: CommandContext): Reply {
  const key = ctx.argv[1] as string;
  const found = lookupTyped(ctx.db, key, 'zset');
  if (!found.ok) return errors.wrongType;
  if (!found.value) return integer(0);
  let removed = 0;
  for (const member of ctx.argv.slice(2)) {
    if (found.value.remove(member)) removed++;
    if (found.value.size === 0) break;
  }
  if (found.value.size === 0) ctx.db.delete(key);
  ctx.dirty(removed);
  return integer(removed);
}

function zcard(ctx: CommandContext): Reply {
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'zset');
  if (!found.ok) return errors.wrongType;
  return integer(found.value?.size ?? 0);
}

function zscore(ctx: CommandContext): Reply {
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'zset');
  if (!found.ok) return errors.wrongType;
  const score = found.value?.score(ctx.argv[2] as string);
  return score === undefined ? nil : bulk(formatDouble(score));
}

function zrank(ctx: CommandContext): Reply {
  const found = lookupTyped(ctx.db, ctx.argv[1] as string, 'zset');
  if (!found.ok) return errors.wrongType;
  const rank = found.value?.rank(ctx.argv[2] as string);
  return rank === undefined ? nil : integer(rank);
}

const W = { write: true };
const WD = { write: true, denyoom: true };

/** The sorted-set family's table entries. */
export const zsetCommands: CommandSpec[] = [
  { name: 'zadd', arity: -4, flags: WD, run: zadd },
  { name: 'zrange', arity: -4, flags: { readonly: true }, run: zrange },
  { name: 'zrem', arity: -3, flags: W, run: zrem },
  { name: 'zcard', arity: 2, flags: { readonly: true }, run: zcard },
  { name: 'zscore', arity: 3, flags: { readonly: true }, run: zscore },
  { name: 'zrank', arity: 3, flags: { readonly: true }, run: zrank },
];
