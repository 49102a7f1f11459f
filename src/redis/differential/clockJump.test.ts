import { afterAll, beforeAll, expect, test } from 'vitest';
import { RedisServerNode } from '../../actors/server/redisNode';
import { CRON_PERIOD_MS } from '../../actors/server/activeExpiry';
import { Sim } from '../../sim/sim';
import { formatReply } from '../cliFormat';
import type { Reply } from '../reply';
import { RespClient } from '../../testing/respClient';
import { startFakeTimeRedis, type FakeTimeRedis } from '../../testing/fakeTimeRedis';

/**
 * Clock jumps, against the real thing: redis-server 7.0 runs under libfaketime, whose wall
 * clock the test steps forward and back while keys with TTLs exist, and a simulated Redis node
 * is given the same steps. They must agree on TTL, PTTL, EXISTS, SET NX and on when an expired
 * key disappears: at the next active-expiry cycle (within about 100 ms) after a forward jump
 * past its deadline, or when a command touches it while the cycle is off.
 *
 * The simulated node's virtual time follows the wall clock between commands, so relative
 * values (PTTL) are compared within a tolerance for the time the real commands took; nothing
 * depends on sub-100 ms wall timing, and every wait is polled with a bound.
 */

/** How far a real PTTL may lag the simulated one: the round trip of a command on a busy machine. */
const PTTL_TOLERANCE_MS = 400;
/** How long a key may take to disappear from the real server on a loaded 2-core machine. */
const REAL_DISAPPEAR_BOUND_MS = 3000;

/** The real server and the simulated node, stepped together. */
class Pair {
  private readonly sim = new Sim(1);
  private readonly node = new RedisServerNode(this.sim, 'r1', [], () => '', undefined);
  private offsetSeconds = 0;
  private wallMark = performance.now();

  constructor(
    private readonly real: FakeTimeRedis,
    private readonly client: RespClient,
  ) {}

  /** Runs one command on both sides and returns both replies. */
  async both(line: string): Promise<{ real: Reply; sim: Reply }> {
    const argv = line.split(' ');
    const [real] = await this.client.send([argv]);
    this.follow();
    let sim: Reply | null = null;
    this.node.execute(argv, 'cli', -1, (reply) => (sim = reply));
    if (sim === null) throw new Error(`the simulated node did not answer ${line}`);
    return { real: real as Reply, sim };
  }

  /** Sets both clocks' offset from true time (whole seconds). */
  jumpTo(offsetSeconds: number): void {
    const by = offsetSeconds - this.offsetSeconds;
    this.offsetSeconds = offsetSeconds;
    this.real.setOffsetSeconds(offsetSeconds);
    this.follow();
    this.node.process.jumpClock(by * 1000);
  }

  /** Lets `ms` of wall time pass on both sides. */
  async sleep(ms: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    this.follow();
  }

  /**
   * Polls DBSIZE (which touches no key) on the real server until it is `count`, and steps the
   * simulated node until its stored key count is `count`. Returns how long each took: wall ms,
   * and virtual ms since the call; null where it never happened within the bound.
   */
  async untilStored(count: number): Promise<{ realMs: number | null; simMs: number | null }> {
    const simStart = this.sim.now;
    let simMs: number | null = null;
    while (this.sim.now - simStart <= 10 * CRON_PERIOD_MS) {
      if (this.node.server.storedKeyCount === count) {
        simMs = this.sim.now - simStart;
        break;
      }
      this.advance(1);
    }
    const wallStart = performance.now();
    let realMs: number | null = null;
    while (performance.now() - wallStart <= REAL_DISAPPEAR_BOUND_MS) {
      const [reply] = await this.client.send([['DBSIZE']]);
      if (reply?.type === 'integer' && reply.value === BigInt(count)) {
        realMs = performance.now() - wallStart;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The simulated side already ran ahead by its own wait; real time since then is dropped.
    this.wallMark = performance.now();
    return { realMs, simMs };
  }

  /** The simulated node's stored keys (DBSIZE without running a command). */
  get simStored(): number {
    return this.node.server.storedKeyCount;
  }

  /** Advances virtual time by the wall time since the last mark. */
  private follow(): void {
    const now = performance.now();
    const elapsed = Math.floor(now - this.wallMark);
    this.wallMark += elapsed;
    this.advance(elapsed);
  }

  private advance(ms: number): void {
    if (ms <= 0) return;
    const until = this.sim.now + ms;
    this.sim.kernel.schedule(ms, null, () => {});
    while ((this.sim.kernel.nextAt() ?? Infinity) <= until && this.sim.kernel.step());
  }
}

let real: FakeTimeRedis;
let client: RespClient;
beforeAll(async () => {
  real = await startFakeTimeRedis();
  client = await RespClient.connect(real.port);
}, 20_000);
afterAll(async () => {
  client?.close();
  await real?.stop();
});

/** A fresh pair: both clocks at true time, both datasets empty. */
async function pair(): Promise<Pair> {
  real.setOffsetSeconds(0);
  await client.send([['FLUSHALL'], ['DEBUG', 'SET-ACTIVE-EXPIRE', '1']]);
  return new Pair(real, client);
}

function text(reply: Reply): string {
  return formatReply(reply);
}

/** Both replies print the same. */
async function same(p: Pair, line: string): Promise<void> {
  const { real, sim } = await p.both(line);
  expect(text(real), line).toBe(text(sim));
}

/** Both answer a PTTL (or TTL in seconds) within the time the real commands took. */
async function close(p: Pair, line: string): Promise<void> {
  const { real, sim } = await p.both(line);
  expect(real.type, line).toBe('integer');
  expect(sim.type, line).toBe('integer');
  const r = Number((real as { value: bigint }).value);
  const s = Number((sim as { value: bigint }).value);
  const tolerance = line.startsWith('PTTL') ? PTTL_TOLERANCE_MS : 1;
  expect(Math.abs(r - s), `${line}: real ${r}, simulated ${s}`).toBeLessThanOrEqual(tolerance);
}

test('TTL and PTTL count down to an absolute deadline: a jump forward shortens them, a jump back lengthens them', async () => {
  const p = await pair();
  await same(p, 'SET a v PX 20000');
  await same(p, 'SET b v EX 100');
  await close(p, 'PTTL a');
  p.jumpTo(8);
  await close(p, 'PTTL a');
  await close(p, 'TTL b');
  await same(p, 'EXISTS a b');
  p.jumpTo(-5);
  await close(p, 'PTTL a');
  await close(p, 'TTL b');
  await same(p, 'SET a w NX');
  await same(p, 'GET a');
}, 20_000);

test('after a jump past its deadline, the active-expiry cycle deletes a key nobody touches, within one cycle', async () => {
  const p = await pair();
  await same(p, 'SET a v PX 5000');
  await same(p, 'SET b v EX 100');
  p.jumpTo(10);
  // The jump itself deletes nothing: Redis compares deadlines only when it looks.
  expect(p.simStored).toBe(2);
  const { realMs, simMs } = await p.untilStored(1);
  expect(
    realMs,
    `redis-server deleted the expired key within ${REAL_DISAPPEAR_BOUND_MS} ms of the jump`,
  ).not.toBeNull();
  expect(simMs, 'the simulated node deleted the expired key without a command touching it').not.toBeNull();
  expect(simMs!).toBeGreaterThan(0);
  expect(simMs!).toBeLessThanOrEqual(CRON_PERIOD_MS);
  await same(p, 'EXISTS a');
  await same(p, 'PTTL a');
  await close(p, 'TTL b');
  await same(p, 'DBSIZE');
}, 20_000);

test('with the active cycle off, an expired key stays stored until a command touches it; SET NX takes it', async () => {
  const p = await pair();
  await same(p, 'DEBUG SET-ACTIVE-EXPIRE 0');
  await same(p, 'SET a v PX 5000');
  await same(p, 'SET c v PX 5000');
  p.jumpTo(10);
  await p.sleep(300);
  // DBSIZE counts stored keys, expired or not; it touches none of them.
  await same(p, 'DBSIZE');
  await same(p, 'PTTL a');
  await same(p, 'DBSIZE');
  await same(p, 'SET c w NX PX 3000');
  await close(p, 'PTTL c');
  await same(p, 'GET c');
  await same(p, 'DBSIZE');
  await same(p, 'DEBUG SET-ACTIVE-EXPIRE 1');
}, 20_000);

test('a jump back before anything deleted an expired key brings it back, with its old deadline', async () => {
  const p = await pair();
  await same(p, 'DEBUG SET-ACTIVE-EXPIRE 0');
  await same(p, 'SET a v PX 6000');
  p.jumpTo(10);
  await p.sleep(300);
  await same(p, 'DBSIZE');
  p.jumpTo(0);
  await same(p, 'EXISTS a');
  await close(p, 'PTTL a');
  await same(p, 'GET a');
  // Turned back on, the cycle finds nothing expired: the key stays.
  await same(p, 'DEBUG SET-ACTIVE-EXPIRE 1');
  await p.sleep(300);
  await same(p, 'DBSIZE');
}, 20_000);
