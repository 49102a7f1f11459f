import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import type { Scenario } from '../scenario/schema/schema';
import { runReality, type RealRun } from './harness';
import { UnsupportedScenario } from './support';
import { leaseStory } from './leaseStory';
import { realityCheck, type CheckOptions } from './realityCheck';

/**
 * Course 1's headline runs, and course 2's Redlock headlines on five redis-servers, on real
 * processes (redis-server, a Node + ioredis process per client, an HTTP resource) give the
 * simulator's verdicts. They run at once (each is mostly
 * waiting) at a quarter of real time, so the suite costs about as long as its longest run.
 */
const SCALE = 0.25;

function scenario(spec: string): Scenario {
  const loaded = loadScenario(spec);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

/**
 * Redlock's instance timeout is 50 ms of scenario time, scaled like every duration: at a quarter
 * of real time a master that answers 13 ms late under load counts as a failure, and a round that
 * should win loses (a release at a quarter of real time did time out so, harmlessly). At half
 * speed it has 25 ms.
 */
const REDLOCK_SCALE: CheckOptions = { scale: 0.5 };

/**
 * The paused barista's pause comes 6 ms (scenario time) before A would finish its work and write:
 * at a quarter of real time that is 1.5 ms, less than a timer's lateness on a loaded 2-core
 * machine, so these two run at twice real time (12 ms of margin), and a run whose pause still
 * landed 6 ms late or more is run again (it is not the scenario's run: A may have written first).
 */
const TIGHT = new Map<string, CheckOptions>([
  // A crashes at 200 ms, inside the 500 ms between its SETNX and its EXPIRE: at a quarter of real
  // time that window is 125 ms, and with every run of this suite side by side a crash landed past
  // it once (the key then got its TTL and B made progress). At real time the crash has 300 ms.
  ['lessons/02-espresso-machine.md#author-collapses', { scale: 1, marginMs: 250 }],
  // A's write reaches the resource at 2.3 s (100 ms of latency each way), 50 ms before its pause:
  // 12.5 ms of real time at a quarter speed, less than a client's start is late when this suite
  // runs with its five-master Redlock runs beside it (A wrote after its pause once). At real time
  // the window is 50 ms.
  ['lessons/04-simplest-lock.md#plain-del', { scale: 1, marginMs: 50 }],
  ['lessons/05-paused-barista.md#paused-barista', { scale: 2, marginMs: 6 }],
  ['lessons/06-fencing-tokens.md#paused-barista-fenced', { scale: 2, marginMs: 6 }],
  ['lessons/14-redlock.md#redlock-one-down', REDLOCK_SCALE],
  ['lessons/21-redlock-pauses-and-delays.md#c2-redlock-pause', REDLOCK_SCALE],
  ['lessons/22-redlock-clock-jump.md#c2-clock-jump', REDLOCK_SCALE],
  ['lessons/14-redlock.md#redlock-restart-aof', REDLOCK_SCALE],
  ['lessons/23-redlock-restarts.md#c2-restart-always-power', REDLOCK_SCALE],
  // The whole run is 2.1 s: at real time the 50 ms instance timeout is 50 real ms, so A's round
  // wins at once as in the simulator (at half speed, under load, the first round lost its
  // answers to the timeout once and the second won: same verdicts, another story).
  ['lessons/20-redlock-step-by-step.md#c2-one-acquisition', { scale: 1 }],
  // A's 300 ms timeout is 75 real ms at a quarter speed: with the suite's other runs beside it,
  // the story (a dropped reply, a timeout, A's own lease waited out) missed that window once
  // while the verdicts agreed. At real time the run is 8 s.
  ['lessons/01-when-redis-is-silent.md#lost-reply', { scale: 1 }],
]);

const HEADLINES = [
  'lessons/01-ground-rules.md#calm-afternoon',
  'lessons/02-espresso-machine.md#author-collapses',
  'lessons/02-espresso-machine.md#note-wiped',
  'lessons/03-lock-or-lease.md#lease-frees-machine',
  'lessons/04-simplest-lock.md#plain-del',
  'lessons/05-paused-barista.md#paused-barista',
  'lessons/06-fencing-tokens.md#paused-barista-fenced',
  'lessons/07-decision-game.md#trial-slow-job',
  'lessons/08-renewals-watchdog.md#long-order-no-renewal',
  // Redis's wall clock leaps 8 s under libfaketime: A's lease expires early and B writes beside it.
  'lessons/01-ground-rules.md#redis-clock-leap',
  // Redlock on five redis-servers: r2 is killed at the start and three of the other four still
  // make a majority; B's rounds fail (and unlock everywhere) until A lets go. B's retry jitter is
  // the simulator's own draw.
  'lessons/14-redlock.md#redlock-one-down',
  // A, paused 15 s after Redlock said yes, writes after B took the lock on a majority.
  'lessons/21-redlock-pauses-and-delays.md#c2-redlock-pause',
  // A is cut off from r4 and r5 from the start (their ports never answer it) and wins on r1–r3;
  // r3's wall clock then leaps 15 s under libfaketime, A's key there expires, and B wins too.
  'lessons/22-redlock-clock-jump.md#c2-clock-jump',
  // Every reply from r1 to A is lost until 1 s (the link proxy drops it whole): A's OK never
  // arrives, A times out, and its retries find the key taken until its own lease runs out.
  'lessons/01-when-redis-is-silent.md#lost-reply',
  // 20 ms on the one link A → r5, and A cut off from r4 from the start: A wins on the other four.
  'lessons/20-redlock-step-by-step.md#c2-one-acquisition',
  // r3 keeps an AOF: killed while A holds the lock and started again, it loads A's key back.
  'lessons/14-redlock.md#redlock-restart-aof',
  // The same with `appendfsync always` and a power cut (a SIGKILL keeps what a power cut keeps then).
  'lessons/23-redlock-restarts.md#c2-restart-always-power',
];

/** What the real run must show besides its verdicts: the story the lesson tells, where the network makes it. */
const STORIES = new Map<string, (trace: RealRun['trace']) => void>([
  [
    'lessons/14-redlock.md#redlock-restart-aof',
    (trace) => {
      // r3's lease for A: granted, lost with the process, loaded again from the file at the
      // restart; so B, cut off from nothing, never gets a majority while A holds the lock.
      expect(leaseStory(trace, 'r3').slice(0, 3)).toEqual(['A granted', 'A lost', 'A granted']);
      const released = trace.find((e) => e.kind === 'lock.released' && e.actor === 'A')!;
      expect(trace.some((e) => e.kind === 'lock.acquired' && e.actor === 'B' && e.id < released.id)).toBe(false);
    },
  ],
  [
    'lessons/23-redlock-restarts.md#c2-restart-always-power',
    (trace) => {
      // Every write was on disk before Redis answered it, so the power cut took nothing: r3
      // loaded A's key back at the restart, and B, with only r4 and r5 free, never held the lock.
      expect(leaseStory(trace, 'r3').slice(0, 3)).toEqual(['A granted', 'A lost', 'A granted']);
      expect(trace.some((e) => e.kind === 'process.power-loss' && e.actor === 'r3')).toBe(true);
      expect(trace.some((e) => e.kind === 'lock.acquired' && e.actor === 'B')).toBe(false);
    },
  ],
  [
    'lessons/01-when-redis-is-silent.md#lost-reply',
    (trace) => {
      // A's first SET was granted, its reply dropped on the way (and recorded so, not as an
      // answer), A timed out, and A only got the lock after its first lease expired.
      const drop = trace.find((e) => e.kind === 'net.drop');
      expect(drop).toMatchObject({ actor: 'A', data: { label: 'reply', reason: 'loss' } });
      const acquired = trace.find((e) => e.kind === 'lock.acquired' && e.actor === 'A')!;
      const expired = trace.find((e) => e.kind === 'lease.ended' && e.data.owner === 'A')!;
      expect(expired.data).toMatchObject({ reason: 'expired' });
      expect(trace.some((e) => e.kind === 'request.timeout' && e.actor === 'A' && e.id > drop!.id)).toBe(true);
      expect(acquired.id).toBeGreaterThan(expired.id);
    },
  ],
  [
    'lessons/20-redlock-step-by-step.md#c2-one-acquisition',
    (trace) => {
      // Every command A sent r4 was dropped by the partition; r5 granted despite its slow link.
      const toR4 = trace.filter((e) => e.kind === 'net.send' && e.actor === 'A' && e.data.to === 'r4');
      const dropped = trace.filter((e) => e.kind === 'net.drop' && e.actor === 'r4');
      expect(dropped.length).toBe(toR4.length);
      expect(dropped.every((e) => e.kind === 'net.drop' && e.data.reason === 'partition')).toBe(true);
      expect(trace.some((e) => e.kind === 'lease.granted' && e.actor === 'r4')).toBe(false);
      expect(trace.some((e) => e.kind === 'lease.granted' && e.actor === 'r5')).toBe(true);
    },
  ],
]);

describe.concurrent('reality check', () => {
  for (const spec of HEADLINES) {
    it(`${spec}: real processes give the simulator's verdicts`, { timeout: 120_000 }, async () => {
      const check = await realityCheck(scenario(spec), TIGHT.get(spec) ?? { scale: SCALE });
      // The run's story has room for the machine's lateness at this scale (timingSensitivity.ts).
      expect(check.sensitivity).toBeNull();
      const table = check.pairs.map((p) => `${p.invariant}: sim ${p.sim?.holds} real ${p.real?.holds}`).join('; ');
      expect(
        check.inconclusive,
        `the script landed ${check.run.scheduleSlipMs.toFixed(1)} ms late in each of ${check.attempts} runs`,
      ).toBe(false);
      expect(check.differ, table).toEqual([]);
      // The run did something worth comparing: locks were taken on the real Redis.
      expect(check.run.trace.some((e) => e.kind === 'lease.granted')).toBe(true);
      STORIES.get(spec)?.(check.run.trace);
    });
  }

  it(
    "a crash and a pause on a minority of Redlock's masters while A holds the lock give the simulator's verdicts",
    { timeout: 120_000 },
    async () => {
      // Lesson 14's run with its faults in the middle of A's hold: r2 is killed at 1 s and r3 is
      // stopped from 1 s to 2.5 s. A keeps its majority; its release at 2 s cannot reach r2 or r3, so
      // r3 still holds A's key when it wakes, and B wins on r1, r4 and r5 alone.
      const base = scenario('lessons/14-redlock.md#redlock-one-down');
      const crash = base.script[0]!;
      const faults = {
        ...base,
        script: [
          { ...crash, at: 1000 },
          { ...crash, at: 1000, do: 'pause', target: 'r3', for: 1500 },
        ],
      } as Scenario;
      // At real time, so the faults land well inside A's two-second hold and a live master answers within the 50 ms instance timeout.
      const check = await realityCheck(faults, { scale: 1, marginMs: 500 });
      const table = check.pairs.map((p) => `${p.invariant}: sim ${p.sim?.holds} real ${p.real?.holds}`).join('; ');
      expect(check.inconclusive).toBe(false);
      expect(check.differ, table).toEqual([]);
      expect(check.reality.every((v) => v.holds)).toBe(true);
      const ended = check.run.trace.filter((e) => e.kind === 'lease.ended');
      // The crash took A's lease on r2 with it; each client held the lock on a majority of real servers.
      expect(ended).toContainEqual(
        expect.objectContaining({ actor: 'r2', data: expect.objectContaining({ owner: 'A', reason: 'lost' }) }),
      );
      for (const owner of ['A', 'B']) {
        const nodes = check.run.trace
          .filter((e) => e.kind === 'lease.granted' && e.data.owner === owner)
          .map((e) => e.actor);
        expect(new Set(nodes).size, `${owner} was granted the lock on ${nodes.join(', ')}`).toBeGreaterThanOrEqual(3);
      }
    },
  );

  it('reports a difference when the real resource stops checking fencing tokens', { timeout: 120_000 }, async () => {
    const check = await realityCheck(scenario('lessons/06-fencing-tokens.md#paused-barista-fenced'), {
      scale: 2,
      marginMs: 6,
      breakFencing: true,
    });
    expect(check.inconclusive).toBe(false);
    expect(check.differ).toContain('single-writer');
    const singleWriter = check.pairs.find((p) => p.invariant === 'single-writer')!;
    expect([singleWriter.sim?.holds, singleWriter.real?.holds]).toEqual([true, false]);
  });

  it('names what it cannot run yet instead of running it', async () => {
    // An AOF across a crash runs (above); a power loss, which loses what was not yet on disk, does not.
    const power = scenario('lessons/23-redlock-restarts.md#c2-restart-everysec-power');
    const refused = await runReality(power, { scale: REDLOCK_SCALE.scale }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnsupportedScenario);
    expect((refused as UnsupportedScenario).reasons).toEqual([
      expect.stringMatching(/^r3: a power loss at \d+ ms with persistence 'aof-everysec' \(a SIGKILL keeps/),
    ]);
    const leap = scenario('lessons/01-ground-rules.md#redis-clock-leap');
    const clientJump = { ...leap, script: leap.script.map((step) => ({ ...step, target: 'A' })) } as Scenario;
    const jump = await runReality(clientJump, { scale: SCALE }).catch((error: unknown) => error);
    expect((jump as UnsupportedScenario).reasons).toEqual([
      expect.stringContaining("a clock jump on A (only a Redis node's clock is stepped so far): not yet supported"),
    ]);
    // Loss between clients and Redis runs; duplication, and loss on the resource's HTTP line, do not.
    const lossy = scenario('lessons/01-when-redis-is-silent.md#lost-reply');
    const weather = { ...lossy, network: { ...lossy.network, duplicate: 0.2, loss: 0.1 } } as Scenario;
    const stormy = await runReality(weather, { scale: SCALE }).catch((error: unknown) => error);
    expect((stormy as UnsupportedScenario).reasons).toEqual([
      'needs message duplication (every link): not yet supported',
      "needs message loss on the resource's line (every link): not yet supported (loss between clients and Redis nodes is)",
    ]);
  });
});
