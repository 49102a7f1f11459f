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
import { stamped, type ClientConfig, type Go, type Report } from './protocol';
import { compute } from './compute';
import { asker, connectMaster, followPrimary } from './masterConnection';
import { singleNodeRecipe, type RealRecipe } from './realRecipe';
import { runSteps } from './realSteps';
import { resourceLine } from './resourceLine';
import { redlockRecipe } from './realRedlock';

const config = JSON.parse(process.argv[2]!) as ClientConfig;
const { id, key, value } = config;
const report = (r: Report) => process.send!(stamped(r));

const masters = config.sentinel
  ? [followPrimary(config.sentinel, config.masters[0]!.id)]
  : config.masters.map((m) => connectMaster(m.id, m.port));
const ask = asker(id, report);
const resource = resourceLine(config, report);

const never = new Promise<never>(() => undefined);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function release(recipe: RealRecipe): Promise<void> {
  const deleted = await recipe.release();
  report({ kind: 'lock.released', actor: id, data: { key, deleted } });
}

/**
 * The watchdog: renews every renewEvery while the job runs. Its timers keep their deadlines
 * through a pause (a real runtime's), so a renewal due during a SIGSTOP goes out at SIGCONT.
 * Resolves `lost` the moment a renewal fails, which ends the job.
 */
function watchdog(recipe: RealRecipe): { lost: Promise<'lost'>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let deadline = performance.now() + config.ttlRealMs;
  const lost = new Promise<'lost'>((resolve) => {
    const renew = async (): Promise<void> => {
      const sent = performance.now();
      const result = await recipe.renew();
      if (stopped) return;
      if (result === 'renewed') {
        deadline = sent + config.ttlRealMs;
        report({ kind: 'lock.renewed', actor: id, data: { key, ttlMs: config.ttlScenarioMs } });
        timer = setTimeout(renew, config.renewEveryRealMs!);
        return;
      }
      if (result === 'unknown' && config.onRenewFail === 'retry' && deadline - sent > 0) {
        timer = setTimeout(renew, Math.max(1, Math.round(config.ttlRealMs / 10)));
        return;
      }
      report({ kind: 'lock.lost', actor: id, data: { key, reason: 'renewal failed' } });
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

/** One job; false when the client ends here (gave up and refused, or lost its lock). */
async function job(recipe: RealRecipe): Promise<boolean> {
  let token: number | null = null;
  let held = false;
  let validityRealMs: number | undefined;
  for (;;) {
    report({ kind: 'lock.request', actor: id, data: { key } });
    const result = await recipe.acquire();
    if (result.ok) {
      ({ token, validityRealMs } = result);
      held = true;
      tries.reset();
      const validity = validityRealMs === undefined ? {} : { validityMs: Math.round(validityRealMs / config.scale) };
      report({
        kind: 'lock.acquired',
        actor: id,
        data: { key, value, token, ttlMs: config.ttlScenarioMs, ...validity },
      });
      break;
    }
    if (result.reason !== 'error') report({ kind: 'lock.busy', actor: id, data: { key } });
    const delay = tries.failed(result.reason);
    if (delay === null) {
      report({
        kind: 'lock.failed',
        actor: id,
        data: { key, attempts: tries.failures, ...(result.error === undefined ? {} : { error: result.error }) },
      });
      tries.reset();
      if (config.onUnavailable === 'proceed' && result.reason === 'timeout') break;
      return false;
    }
    await sleep(delay * config.scale);
  }
  const dog = held ? watchdog(recipe) : null;
  const validity = validityWindow(validityRealMs);
  const lostOrLapsed = Promise.race([dog?.lost ?? never, validity.lapsed]);
  const unlessLost = <T>(step: Promise<T>) => Promise.race([step, lostOrLapsed]);
  // A resource read first (a payment, a dispatch) may say there is nothing to do: then it lets go.
  let basis: ReadResult | null = null;
  let ending: 'ready' | 'nothing-to-do' | 'worked' | 'written' | 'lost' | 'lapsed' = 'ready';
  if (config.readsFirst)
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
    report({
      kind: 'lock.lost',
      actor: id,
      data: { key, reason: 'validity ran out: it stops using the lock and unlocks every master' },
    });
    await release(recipe);
    return false;
  }
  if (held) await release(recipe);
  return true;
}

async function main(): Promise<void> {
  if (config.steps) await runSteps(config, config.steps, { masters, ask, report, tries, resource });
  else {
    const recipe =
      config.recipe === 'redlock' ? redlockRecipe(config, masters, ask) : singleNodeRecipe(config, masters[0]!, ask);
    for (let done = 0; done < config.jobs; done++) if (!(await job(recipe))) break;
  }
  for (const m of masters) m.redis.disconnect();
  process.disconnect();
}

// Ready once every node it talks to accepts commands and the resource's connection is open.
void Promise.all(masters.map((m) => new Promise((resolve) => m.redis.once('ready', resolve))))
  .then(() => resource.warmUp())
  .then(() => process.send!({ ready: true }));
// `go` carries the run's start on the clock every process shares (Unix time in ms, to a
// microsecond), so a client starts at its `startAt` however long the message took to arrive.
process.on('message', (m: Partial<Go>) => {
  if (m.go)
    setTimeout(
      () => void main().catch(() => process.disconnect()),
      m.startUnixMs! + config.startAtRealMs - (performance.timeOrigin + performance.now()),
    );
});
// The harness gone, this client has nobody to report to: it never outlives it.
process.on('disconnect', () => process.exit(0));
