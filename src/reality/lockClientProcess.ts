/**
 * A lock client as a real program: one Node process talking to real redis-servers through
 * ioredis (one connection per node, or one that follows the primary Sentinel names), running one of the catalog's recipes (realRecipe.ts,
 * realRedlock.ts) with the scenario's TTL, retry, work and watchdog settings (every duration
 * already scaled by the harness). It reports each step in the trace's own kinds over IPC; the
 * harness times them. Its ClientConfig is argv[2].
 *
 * The order of things follows the simulator's lock client machine (src/actors/client/lockClientMachine.ts):
 * request, acquire (retrying as the policy says), work, write to the resource, release; the
 * watchdog renews beside the job and a failed renewal ends it as `lost`; a Redlock client that
 * keeps to its validity stops using the lock when it runs out, unlocks every master, and ends as `lost`.
 */
import { jitterStream, Tries } from '../actors/client/retryPolicy';
import type { ReadResult } from '../actors/resources/resource';
import { Prng } from '../sim/prng';
import { formatMs } from '../sim/time';
import { stamped, type ClientConfig, type Go, type Report } from './protocol';
import { sharedNowMs } from './sharedClock';
import { compute } from './compute';
import { asker, connectMaster, followPrimary } from './masterConnection';
import { coreRecipe } from './coreRecipe';
import { realBreaker } from './realBreaker';
import { routedAsk } from './realCluster';
import { HAND_WRITTEN, singleNodeRecipe, type Acquired, type RealRecipe } from './realRecipe';
import { runSteps } from './realSteps';
import { resourceLine } from './resourceLine';
import { redlockRecipe } from './realRedlock';
import { leaseServiceRecipe } from './realLeaseService';
import { dbLockRecipe } from './realDbLock';

const config = JSON.parse(process.argv[2]!) as ClientConfig;
const { id, keys, value } = config;
const report = (r: Report) => process.send!(stamped(r));

const masters = config.sentinel
  ? [followPrimary(config.sentinel, config.masters[0]!.id)]
  : config.masters.map((m) => connectMaster(m.id, m.port));
const ask = config.cluster
  ? routedAsk(asker(id, report, config.wait), config.cluster, masters)
  : asker(id, report, config.wait);
const resource = resourceLine(config, report);

const never = new Promise<never>(() => undefined);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Lets go of every key, last taken first: a reentrant recipe once per entry, each key reported
 * once (deleted if any of its releases deleted).
 */
async function release(recipe: RealRecipe, entries: number): Promise<void> {
  for (const key of [...keys].reverse()) {
    let deleted = false;
    for (let left = recipe.reentrant ? entries : 1; left > 0; left--) deleted = (await recipe.release(key)) || deleted;
    report({ kind: 'lock.released', actor: id, data: { key, deleted } });
  }
}

/** The watchdog's round: extends every key in turn, and stops at the first that was not. */
async function renewAll(recipe: RealRecipe): Promise<'renewed' | 'lost' | 'unknown'> {
  for (const key of keys) {
    const result = await recipe.renew(key);
    if (result !== 'renewed') return result;
    report({ kind: 'lock.renewed', actor: id, data: { key, ttlMs: config.ttlScenarioMs } });
  }
  return 'renewed';
}

/**
 * The watchdog: renews every renewEvery while the job runs. Its timers keep their deadlines
 * through a pause (a real runtime's), so a renewal due during a SIGSTOP goes out at SIGCONT.
 * Resolves `lost` the moment a renewal fails, which ends the job, and when the keys have been
 * held for the client's maxHold: then it stops renewing and leaves the lease to expire, as the
 * simulator's lock client does (measured on the monotonic clock, from when it took them all).
 */
function watchdog(recipe: RealRecipe): { lost: Promise<'lost'>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const heldSince = performance.now();
  let deadline = heldSince + config.ttlRealMs;
  const lost = new Promise<'lost'>((resolve) => {
    const renew = async (): Promise<void> => {
      const sent = performance.now();
      const cap = config.maxHold;
      if (cap && sent - heldSince >= cap.realMs) {
        const reason = `held for ${formatMs(cap.scenarioMs)}, its cap: the watchdog stops renewing`;
        for (const key of keys) report({ kind: 'lock.lost', actor: id, data: { key, reason } });
        return resolve('lost');
      }
      const result = await renewAll(recipe);
      if (stopped) return;
      if (result === 'renewed') {
        deadline = sent + config.ttlRealMs;
        timer = setTimeout(renew, config.renewEveryRealMs!);
        return;
      }
      if (result === 'unknown' && config.onRenewFail === 'retry' && deadline - sent > 0) {
        timer = setTimeout(renew, Math.max(1, Math.round(config.ttlRealMs / 10)));
        return;
      }
      for (const key of keys) report({ kind: 'lock.lost', actor: id, data: { key, reason: 'renewal failed' } });
      resolve('lost');
    };
    if (config.renewEveryRealMs !== null) timer = setTimeout(renew, config.renewEveryRealMs);
  });
  return { lost, stop: () => ((stopped = true), clearTimeout(timer)) };
}

/**
 * Redlock's validity as a careful client keeps it (the simulator's ValidityWindow): from the
 * moment the round succeeded, `validityRealMs` on the monotonic clock. `lapsed` resolves when it
 * runs out (a timer due during a SIGSTOP fires at the SIGCONT, as the simulator's does); `over`
 * is asked once more when the work is done, before the write.
 */
function validityWindow(validityRealMs: number | undefined): {
  lapsed: Promise<'lapsed'>;
  over: () => boolean;
  close: () => void;
} {
  if (validityRealMs === undefined || config.redlock.validity !== 'respected')
    return { lapsed: never, over: () => false, close: () => undefined };
  const until = performance.now() + validityRealMs;
  let timer: NodeJS.Timeout | undefined;
  const lapsed = new Promise<'lapsed'>((resolve) => {
    timer = setTimeout(() => resolve('lapsed'), validityRealMs);
  });
  return { lapsed, over: () => performance.now() >= until, close: () => clearTimeout(timer) };
}

// The simulator's own jitter draws: the scenario's seed, forked for this client as World forks it.
const tries = new Tries(
  config.retry,
  jitterStream(Prng.fromSeed(config.seed), id, config.startAtScenarioMs, config.retry),
);

// The circuit breaker around acquire calls, for a client with one: while it is open a try fails
// at once (on the next tick, as the simulator's does) without asking Redis, and counts as silence.
const breaker = config.breaker ? realBreaker(config.breaker.failures, config.breaker.coolDownRealMs) : null;
const failFast = () =>
  new Promise<Acquired>((resolve) => setImmediate(() => resolve({ ok: false, reason: 'timeout' })));

/** A real try at `key`, its answer told to the breaker (if any) first. */
async function asked(recipe: RealRecipe, key: string): Promise<Acquired> {
  const result = await recipe.acquire(key);
  breaker?.heard(result);
  return result;
}

/**
 * Takes `wanted` in order, each tried until it is taken (`lock.acquired`), or until the retry
 * policy gives up (`lock.failed`: the keys already taken stay taken), as the lock client
 * machine's `acquiring` (and `reentering`, with the first key) does. Holding them all is what
 * "acquired" means; the answer is the last key's.
 */
async function take(recipe: RealRecipe, wanted: readonly string[] = keys): Promise<Acquired> {
  let last: Acquired = { ok: false, reason: 'busy' };
  for (const key of wanted)
    for (;;) {
      report({ kind: 'lock.request', actor: id, data: { key } });
      const result = breaker?.isOpen() ? await failFast() : await asked(recipe, key);
      if (result.ok) {
        const { token, validityRealMs } = result;
        const validity = validityRealMs === undefined ? {} : { validityMs: Math.round(validityRealMs / config.scale) };
        report({
          kind: 'lock.acquired',
          actor: id,
          data: { key, value, token, ttlMs: config.ttlScenarioMs, ...validity },
        });
        last = result;
        break;
      }
      const refused = result.refusal === undefined ? {} : { refusal: result.refusal };
      if (result.reason !== 'error') report({ kind: 'lock.busy', actor: id, data: { key, ...refused } });
      // Like Redisson, give back the key Redis granted but the client refused, then carry on.
      if (result.release)
        report({ kind: 'lock.released', actor: id, data: { key, deleted: await recipe.release(key) } });
      const delay = tries.failed(result.reason);
      if (delay === null) {
        report({
          kind: 'lock.failed',
          actor: id,
          data: { key, attempts: tries.failures, ...(result.error === undefined ? {} : { error: result.error }) },
        });
        tries.reset();
        return result;
      }
      await sleep(delay * config.scale);
    }
  tries.reset();
  return last;
}

/** One job; false when the client ends here (gave up and refused, or lost its lock). */
async function job(recipe: RealRecipe): Promise<boolean> {
  const first = await take(recipe);
  if (!first.ok && !(config.onUnavailable === 'proceed' && first.reason === 'timeout')) return false;
  const held = first.ok;
  const token = first.ok ? first.token : null;
  const validityRealMs = first.ok ? first.validityRealMs : undefined;
  const dog = held ? watchdog(recipe) : null;
  const validity = validityWindow(validityRealMs);
  const lostOrLapsed = Promise.race([dog?.lost ?? never, validity.lapsed]);
  const unlessLost = <T>(step: Promise<T>) => Promise.race([step, lostOrLapsed]);
  let basis: ReadResult | null = null;
  let ending: 'ready' | 'gave-up' | 'nothing-to-do' | 'worked' | 'written' | 'lost' | 'lapsed' = 'ready';
  // A nested call takes the lock again while holding it: a reentrant recipe counts the entry,
  // any other finds the lock taken (by itself) and waits, as the machine's `reentering` does.
  let entries = 1;
  for (let n = 0; held && n < config.reenter && ending === 'ready'; n++) {
    const again = await unlessLost(take(recipe, keys.slice(0, 1)));
    if (again === 'lost' || again === 'lapsed') ending = again;
    else if (again.ok) entries++;
    else ending = 'gave-up';
  }
  // A resource read first (a payment, a dispatch) may say there is nothing to do: then it lets go.
  if (config.readsFirst && ending === 'ready')
    ending = await unlessLost(
      resource.read().then((read) => ((basis = read), read.act ? ('ready' as const) : ('nothing-to-do' as const))),
    );
  if (ending === 'ready')
    ending = await unlessLost(
      config.workRealMs === null ? never : compute(config.workRealMs).then(() => 'worked' as const),
    );
  if (ending === 'worked' && validity.over()) ending = 'lapsed';
  if (ending === 'worked') ending = await unlessLost(resource.write(token, basis).then(() => 'written' as const));
  dog?.stop();
  validity.close();
  if (ending === 'lost') return false;
  if (ending === 'lapsed') {
    for (const key of keys)
      report({
        kind: 'lock.lost',
        actor: id,
        data: { key, reason: 'validity ran out: it stops using the lock and unlocks every master' },
      });
    await release(recipe, entries);
    return false;
  }
  if (held) await release(recipe, entries);
  return true;
}

/**
 * The recipe's protocol on real Redis: Redlock's and the five first single-node recipes'
 * written for the harness (realRedlock.ts, realRecipe.ts), every other one-node recipe the
 * simulator's own (coreRecipe.ts); the lease service's on a real etcd (realLeaseService.ts), the
 * database lock table's on a real PostgreSQL (realDbLock.ts).
 */
function realRecipeOf(name: NonNullable<ClientConfig['recipe']>): RealRecipe {
  if (name === 'redlock') return redlockRecipe(config, masters, ask);
  if (name === 'lease-service') return leaseServiceRecipe(config, report);
  if (name === 'db-lock') return dbLockRecipe(config, report);
  if ((HAND_WRITTEN as readonly string[]).includes(name)) return singleNodeRecipe(config, masters[0]!, ask);
  return coreRecipe(config, name, masters[0]!, ask);
}

async function main(): Promise<void> {
  if (config.steps) await runSteps(config, config.steps, { masters, ask, report, tries, resource });
  else {
    const recipe = realRecipeOf(config.recipe!);
    for (let done = 0; done < config.jobs; done++) if (!(await job(recipe))) break;
  }
  for (const m of masters) m.redis.disconnect();
  breaker?.stop();
  process.disconnect();
}

// Ready once every node it talks to accepts commands and the resource's connection is open.
void Promise.all(masters.map((m) => new Promise((resolve) => m.redis.once('ready', resolve))))
  .then(() => resource.warmUp())
  .then(() => process.send!({ ready: true }));
// `go` carries the run's start on the machine's monotonic clock (sharedClock.ts), so a client
// starts at its `startAt` however long the message took to arrive.
process.on('message', (m: Partial<Go>) => {
  if (m.go)
    setTimeout(
      () => void main().catch(() => process.disconnect()),
      m.startSharedMs! + config.startAtRealMs - sharedNowMs(),
    );
});
// The harness gone, this client has nobody to report to: it never outlives it.
process.on('disconnect', () => process.exit(0));
