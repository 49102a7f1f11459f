import { RELEASE_IF_MINE } from '../actors/recipes/lockScripts';
import { startRealRedis } from '../testing/realRedis';
import { RespClient } from '../testing/respClient';
import { RedisServer } from '../redis/server';
import { loadScriptEngine } from '../scenario/running/run';

/**
 * Simulated Redis throughput on the lock workload: per round, `SET lock <token> NX PX 10000`,
 * `EVAL <release-if-mine> 1 lock <token>` and `INCR fence`, against the same mix sent to a real
 * redis-server 7.0 with a pipelined client (100 rounds per round trip) in the same run. The
 * simulator runs each command through its command table and the Lua VM, synchronously.
 */
export interface ThroughputOptions {
  /** Wall time to measure each side for (after a quarter as much warm-up). */
  durationMs?: number;
  /** Skip the real server (when redis-server is not installed). */
  skipReal?: boolean;
}

const mix = (i: number): string[][] => {
  const token = `client-${i}`;
  return [
    ['SET', 'lock', token, 'NX', 'PX', '10000'],
    ['EVAL', RELEASE_IF_MINE, '1', 'lock', token],
    ['INCR', 'fence'],
  ];
};

/** Commands per wall-clock second of `round(i)` (which returns how many commands it ran). */
async function measure(durationMs: number, round: (i: number) => Promise<number> | number): Promise<number> {
  let i = 0;
  const warmEnd = performance.now() + durationMs / 4;
  while (performance.now() < warmEnd) await round(i++);
  let commands = 0;
  const start = performance.now();
  let now = start;
  while (now - start < durationMs) {
    commands += await round(i++);
    now = performance.now();
  }
  return commands / ((now - start) / 1000);
}

/** Runs the benchmark; returns one JSON line per figure, as `npm run bench` prints them. */
export async function redisThroughput(options: ThroughputOptions = {}): Promise<string[]> {
  const durationMs = options.durationMs ?? 2000;
  const scripts = await loadScriptEngine();
  let clockMs = 1_700_000_000_000;
  const server = new RedisServer({ clock: () => clockMs, random: () => 0.5, scripts });
  const sim = await measure(durationMs, (i) => {
    clockMs++;
    for (const argv of mix(i)) server.exec(argv);
    return 3;
  });
  const figure: Record<string, unknown> = {
    name: 'redis.sim.commands_per_s',
    value: Math.round(sim),
    unit: 'commands/s',
    mix: 'SET NX PX, EVAL release, INCR',
  };
  if (!options.skipReal) {
    const real = await startRealRedis();
    const client = await RespClient.connect(real.port);
    try {
      const PIPELINE_ROUNDS = 100;
      const realRate = await measure(durationMs, async (i) => {
        const batch: string[][] = [];
        for (let k = 0; k < PIPELINE_ROUNDS; k++) batch.push(...mix(i * PIPELINE_ROUNDS + k));
        await client.send(batch);
        return batch.length;
      });
      figure.baseline = Math.round(realRate);
      figure.baseline_name = `redis-server ${real.version}, pipelined x${PIPELINE_ROUNDS * 3}`;
      figure.ratio = Number((sim / realRate).toFixed(3));
    } finally {
      client.close();
      await real.stop();
    }
  }
  return [JSON.stringify(figure)];
}
