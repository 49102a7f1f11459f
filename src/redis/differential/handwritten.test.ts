import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseCaseFile, type DiffCase } from './cases';
import { startRealRedis, type RealRedis } from '../../testing/realRedis';
import { describeDifferences, diffCases } from './runDiff';

// Hand-written cases (everything but scripting, which needs the Lua engine: scripting.test.ts).
const CASE_DIR = join(__dirname, 'cases');
const files = readdirSync(CASE_DIR)
  .filter((f) => f.endsWith('.txt') && f !== 'scripting.txt')
  .sort();
const cases: DiffCase[] = files.flatMap((f) => parseCaseFile(f, readFileSync(join(CASE_DIR, f), 'latin1')));

let redis: RealRedis;
beforeAll(async () => {
  redis = await startRealRedis();
}, 20_000);
afterAll(async () => {
  await redis?.stop();
});

test(`hand-written cases match redis-server 7.0 line for line`, async () => {
  const lineCount = cases.reduce((sum, c) => sum + c.lines.length, 0);
  console.log(
    `differential: ${cases.length} hand-written cases (${lineCount} command lines) from ${files.length} files against redis-server ${redis.version}`,
  );
  expect(cases.length).toBeGreaterThanOrEqual(400);
  // The simulator starts at the wall clock so absolute times (EXAT, EXPIREAT) mean the same on both.
  const differences = await diffCases(redis.port, cases, undefined, Date.now());
  expect(differences, describeDifferences(differences)).toEqual([]);
}, 80_000);
