import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startRealRedis, type RealRedis } from '../../testing/realRedis';
import { RespClient } from '../../testing/respClient';
import { sequenceArbitrary } from './commandArbitrary';
import { RedisServer } from '../server';
import { formatReply } from '../cliFormat';

// Random command sequences over a three-key space, run on the real server (pipelined over
// RESP) and on a fresh simulated server; both replies are printed with redis-cli's format.
const RUNS = 2500;

let redis: RealRedis;
let client: RespClient;
beforeAll(async () => {
  redis = await startRealRedis();
  client = await RespClient.connect(redis.port);
}, 20_000);
afterAll(async () => {
  client?.close();
  await redis?.stop();
});

test(`${RUNS} random command sequences answer like redis-server`, async () => {
  const seed = Number(process.env.SEED ?? Date.now() % 2 ** 31);
  let ran = 0;
  try {
    await fc.assert(
      fc.asyncProperty(sequenceArbitrary, async (sequence) => {
        ran++;
        const [, ...real] = await client.send([['FLUSHALL'], ...sequence]);
        const sim = new RedisServer({ clock: () => Date.now(), random: () => 0.5 });
        sequence.forEach((argv, i) => {
          const expected = formatReply(real[i]!);
          const actual = formatReply(sim.exec(argv));
          if (expected !== actual) {
            throw new Error(
              `command ${i + 1} "${argv.join(' ')}": real ${JSON.stringify(expected)}, sim ${JSON.stringify(actual)}`,
            );
          }
        });
      }),
      { numRuns: RUNS, seed },
    );
  } catch (error) {
    console.log(`SEED=${seed} (rerun with SEED=${seed} npx vitest run src/redis/differential/randomSequences.test.ts)`);
    throw error;
  }
  console.log(`differential: ${RUNS} random sequences (${ran} runs incl. shrinking), seed ${seed}`);
  expect(ran).toBeGreaterThanOrEqual(RUNS);
}, 80_000);
