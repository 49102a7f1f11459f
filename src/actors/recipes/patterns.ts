import { commandLabel, RELEASE_IF_MINE, RENEW_IF_MINE } from './lockScripts';
import {
  FAIR_ACQUIRE,
  RW_READ_ACQUIRE,
  RW_RELEASE,
  RW_RENEW,
  RW_WRITE_ACQUIRE,
  SEMAPHORE_ACQUIRE,
  SEMAPHORE_RELEASE,
  SEMAPHORE_RENEW,
} from './patternScripts';
import {
  failure,
  granted,
  integerOf,
  type AcquireResult,
  type Recipe,
  type RecipeContextOn,
  type RenewResult,
} from './recipe';
import type { RpcResult } from '../client/rpc';

type Done = (result: RpcResult) => void;

/** What every pattern recipe shares: one node, its calls labelled for the timeline. */
function caller<Node>(ctx: RecipeContextOn<Node>) {
  const node = ctx.nodes[0]!;
  const ttl = String(ctx.ttlMs);
  const call = (argv: string[], done: Done, leaseOf?: string) =>
    ctx.rpc.call(node, argv, commandLabel, done, undefined, leaseOf);
  /** An acquire script answers 1 when it let us in, nil when it did not. */
  const acquired = (result: RpcResult): AcquireResult =>
    result.ok && result.reply.type === 'integer' ? granted(result) : failure(result);
  const released = (result: RpcResult) => result.ok && (integerOf(result.reply) ?? 0) > 0;
  const renewed = (result: RpcResult): RenewResult =>
    !result.ok || result.reply.type === 'error' ? 'unknown' : integerOf(result.reply) === 1 ? 'renewed' : 'lost';
  return { call, ttl, acquired, released, renewed };
}

/**
 * A fair lock: waiters are served in the order their first request reached Redis (FAIR_ACQUIRE).
 * A waiter stays queued for one lease length after each request; one that stops asking (it
 * crashed, or gave up) drops out then, so the queue moves on without it.
 */
export function fairRecipe<Node>(ctx: RecipeContextOn<Node>): Recipe {
  const { call, ttl, acquired, released, renewed } = caller(ctx);
  return {
    reentrant: false,
    acquire(key, done) {
      call(
        ['EVAL', FAIR_ACQUIRE, '3', key, `${key}:queue`, `${key}:waiting`, ctx.value, ttl, ttl],
        (r) => done(acquired(r)),
        key,
      );
    },
    release(key, done) {
      call(['EVAL', RELEASE_IF_MINE, '1', key, ctx.value], (r) => done(released(r)));
    },
    renew(key, done) {
      call(['EVAL', RENEW_IF_MINE, '1', key, ctx.value, ttl], (r) => done(renewed(r)));
    },
  };
}

/**
 * A read-write lock in one hash: a field per holder and a `mode`. `atomic` checks and takes in
 * one script (RW_READ_ACQUIRE, RW_WRITE_ACQUIRE). `two-step` is the version many guides give:
 * look (`HGET mode`, or `EXISTS` for a writer), then, one round trip later, write
 * (`HSET`, then `PEXPIRE`). A reader and a writer that both look before either writes both get in.
 */
export function readWriteRecipe<Node>(
  ctx: RecipeContextOn<Node>,
  side: 'read' | 'write',
  build: 'atomic' | 'two-step',
): Recipe {
  const { call, ttl, acquired, released, renewed } = caller(ctx);
  /** Runs `next` after the client's think time, work of its own that a pause stops where it is. */
  const thenAfterGap = (next: () => void) => (ctx.gapMs > 0 ? ctx.process.compute(ctx.gapMs, next) : next());

  const atomic = (key: string, done: (result: AcquireResult) => void) =>
    call(
      ['EVAL', side === 'read' ? RW_READ_ACQUIRE : RW_WRITE_ACQUIRE, '1', key, ctx.value, ttl],
      (r) => done(acquired(r)),
      key,
    );

  const twoStep = (key: string, done: (result: AcquireResult) => void) => {
    const look = side === 'read' ? ['HGET', key, 'mode'] : ['EXISTS', key];
    call(look, (seen) => {
      if (!seen.ok || seen.reply.type === 'error') return done(failure(seen));
      const free =
        side === 'read' ? !(seen.reply.type === 'bulk' && seen.reply.value === 'write') : integerOf(seen.reply) === 0;
      if (!free) return done({ ok: false, reason: 'busy' });
      const take = side === 'read' ? ['HINCRBY', key, ctx.value, '1'] : ['HSET', key, ctx.value, '1'];
      thenAfterGap(() =>
        call(take, (taken) => {
          if (!taken.ok || taken.reply.type === 'error') return done(failure(taken));
          call(['HSET', key, 'mode', side], () => call(['PEXPIRE', key, ttl], (expire) => done(granted(expire)), key));
        }),
      );
    });
  };

  return {
    reentrant: false,
    acquire: build === 'atomic' ? atomic : twoStep,
    release(key, done) {
      call(['EVAL', RW_RELEASE, '1', key, ctx.value], (r) => done(released(r)));
    },
    renew(key, done) {
      call(['EVAL', RW_RENEW, '1', key, ctx.value, ttl], (r) => done(renewed(r)));
    },
  };
}

/**
 * A counting semaphore: at most `permits` holders of the key at once (SEMAPHORE_ACQUIRE). Each
 * holder's entry carries its own lease end, so a holder that crashes frees its permit when
 * its lease runs out, not never.
 */
export function semaphoreRecipe<Node>(ctx: RecipeContextOn<Node>): Recipe {
  const { call, ttl, acquired, released, renewed } = caller(ctx);
  const permits = String(ctx.permits);
  return {
    reentrant: false,
    acquire(key, done) {
      call(['EVAL', SEMAPHORE_ACQUIRE, '1', key, ctx.value, ttl, permits], (r) => done(acquired(r)), key);
    },
    release(key, done) {
      call(['EVAL', SEMAPHORE_RELEASE, '1', key, ctx.value], (r) => done(released(r)));
    },
    renew(key, done) {
      call(['EVAL', SEMAPHORE_RENEW, '1', key, ctx.value, ttl], (r) => done(renewed(r)));
    },
  };
}
