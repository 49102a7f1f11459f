/**
 * A lock client as a real program: one Node process talking to a real redis-server through
 * ioredis, running one of the catalog's basic recipes with the scenario's TTL, retry, work and
 * watchdog settings (every duration already scaled by the harness). It reports each step in
 * the trace's own kinds over IPC; the harness times them. Its ClientConfig is argv[2].
 *
 * The order of things follows the simulator's lock client machine (src/actors/client/lockClientMachine.ts):
 * request, acquire (retrying as the policy says), work, write to the resource, release; the
 * watchdog renews beside the job and a failed renewal ends it as `lost`.
 */
import { Agent, request } from 'node:http';
import Redis from 'ioredis';
import { ACQUIRE_WITH_FENCE, commandLabel, RELEASE_IF_MINE, RENEW_IF_MINE } from '../actors/recipes/lockScripts';
import { Tries } from '../actors/client/retryPolicy';
import { Prng } from '../sim/prng';
import type { ClientConfig, Go, Report, WriteRequest } from './protocol';
import { compute } from './compute';

const config = JSON.parse(process.argv[2]!) as ClientConfig;
const { id, key, value } = config;
const report = (r: Report) => process.send!(r);

// A command in flight when Redis dies is not sent again after the reconnect: it gets no answer,
// as a message to a crashed node in the simulator is dropped (see `ask`). A command issued while
// the connection is down waits for the reconnect (ioredis's offline queue, its default): a real
// client asking just after Redis came back must not lose its request to its own reconnecting.
const redis = new Redis({
  port: config.redisPort,
  host: '127.0.0.1',
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: null,
  retryStrategy: () => 10,
});
redis.on('error', () => undefined);

type Answer = { reply: unknown } | null;
let messages = 0;
const never = new Promise<never>(() => undefined);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One command: null when no answer came in time (or ever, the connection lost with it in flight). */
async function ask(argv: string[]): Promise<Answer> {
  const msg = ++messages;
  report({ kind: 'net.send', actor: id, data: { msg, to: config.redisId, label: commandLabel(argv) } });
  const call = redis.call(argv[0]!, ...argv.slice(1)).then(
    (reply) => ({ reply }),
    (error: Error) => (/^(ERR|WRONGTYPE|NOSCRIPT)/.test(error.message) ? { reply: error } : never),
  );
  const timeout = config.timeoutRealMs === null ? never : sleep(config.timeoutRealMs).then(() => null);
  const answer = await Promise.race([call, timeout]);
  if (answer === null)
    report({ kind: 'request.timeout', actor: id, data: { msg, to: config.redisId, label: commandLabel(argv) } });
  else report({ kind: 'net.send', actor: config.redisId, data: { msg, to: id, label: 'reply' } });
  return answer;
}

type Acquired =
  { ok: true; token: number | null } | { ok: false; reason: 'busy' | 'timeout' | 'error'; error?: string };
const failure = (a: Answer): Acquired =>
  a === null
    ? { ok: false, reason: 'timeout' }
    : a.reply instanceof Error
      ? { ok: false, reason: 'error', error: a.reply.message }
      : { ok: false, reason: 'busy' };
const ttl = String(config.ttlRealMs);

async function acquire(): Promise<Acquired> {
  switch (config.recipe) {
    case 'get-then-set': {
      const got = await ask(['GET', key]);
      if (got === null || got.reply !== null) return failure(got);
      if (config.gapRealMs > 0) await compute(config.gapRealMs);
      const set = await ask(['SET', key, value, 'PX', ttl]);
      return set?.reply === 'OK' ? { ok: true, token: null } : failure(set);
    }
    case 'setnx-then-expire': {
      const setnx = await ask(['SETNX', key, value]);
      if (setnx?.reply !== 1) return failure(setnx);
      if (config.gapRealMs > 0) await compute(config.gapRealMs);
      // The client believes it holds the key whatever PEXPIRE answered.
      await ask(['PEXPIRE', key, ttl]);
      return { ok: true, token: null };
    }
    default: {
      const a = await ask(
        config.fencing
          ? ['EVAL', ACQUIRE_WITH_FENCE, '2', key, `${key}:fence`, value, ttl]
          : ['SET', key, value, 'NX', 'PX', ttl],
      );
      if (a?.reply === 'OK') return { ok: true, token: null };
      if (typeof a?.reply === 'number') return { ok: true, token: a.reply };
      return failure(a);
    }
  }
}

async function release(): Promise<void> {
  const plain =
    config.recipe === 'lease-plain-del' || config.recipe === 'setnx-then-expire' || config.recipe === 'get-then-set';
  const a = await ask(plain ? ['DEL', key] : ['EVAL', RELEASE_IF_MINE, '1', key, value]);
  report({ kind: 'lock.released', actor: id, data: { key, deleted: typeof a?.reply === 'number' && a.reply > 0 } });
}

// One kept-alive connection to the resource, opened before the run starts (see `ready`): a
// first request's connection set-up would otherwise count as the write's own time.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function post(body: WriteRequest | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(config.resourceUrl, { method: 'POST', agent }, (res) => res.resume().on('end', resolve));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function writeResource(token: number | null): Promise<void> {
  report({ kind: 'resource.request', actor: id, data: { resource: config.resourceId, token, value: `${id}'s order` } });
  await post({ from: id, token });
}

/**
 * The watchdog: renews every renewEvery while the job runs. Its timers keep their deadlines
 * through a pause (a real runtime's), so a renewal due during a SIGSTOP goes out at SIGCONT.
 * Resolves `lost` the moment a renewal fails, which ends the job.
 */
function watchdog(): { lost: Promise<'lost'>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let deadline = performance.now() + config.ttlRealMs;
  const lost = new Promise<'lost'>((resolve) => {
    const renew = async (): Promise<void> => {
      const sent = performance.now();
      const a = await ask(['EVAL', RENEW_IF_MINE, '1', key, value, ttl]);
      if (stopped) return;
      if (a !== null && a.reply === 1) {
        deadline = sent + config.ttlRealMs;
        report({ kind: 'lock.renewed', actor: id, data: { key, ttlMs: config.ttlScenarioMs } });
        timer = setTimeout(renew, config.renewEveryRealMs!);
        return;
      }
      const definite = a !== null && a.reply === 0;
      if (!definite && config.onRenewFail === 'retry' && deadline - sent > 0) {
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

const tries = new Tries(
  { ...config.retry, delayMs: config.retry.delayRealMs, maxDelayMs: config.retry.maxDelayRealMs, jitterMs: 0 },
  Prng.fromSeed(1).fork(`retry:${id}`),
);

/** One job; false when the client ends here (gave up and refused, or lost its lock). */
async function job(): Promise<boolean> {
  let token: number | null = null;
  let held = false;
  for (;;) {
    report({ kind: 'lock.request', actor: id, data: { key } });
    const result = await acquire();
    if (result.ok) {
      token = result.token;
      held = true;
      tries.reset();
      report({ kind: 'lock.acquired', actor: id, data: { key, value, token, ttlMs: config.ttlScenarioMs } });
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
    await sleep(delay);
  }
  const dog = held ? watchdog() : null;
  const work = config.workRealMs === null ? never : compute(config.workRealMs).then(() => 'worked' as const);
  const ending = await Promise.race([work, dog?.lost ?? never]);
  if (ending === 'lost') return false;
  const written = await Promise.race([writeResource(token).then(() => 'written' as const), dog?.lost ?? never]);
  dog?.stop();
  if (written === 'lost') return false;
  if (held) await release();
  return true;
}

async function main(): Promise<void> {
  for (let done = 0; done < config.jobs; done++) if (!(await job())) break;
  redis.disconnect();
  process.disconnect();
}

redis.once('ready', () => void post(null).then(() => process.send!({ ready: true })));
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
