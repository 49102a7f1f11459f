import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseCaseFile } from './cases';
import { startRealRedis, type RealRedis } from '../../testing/realRedis';
import { describeDifferences, diffCases } from './runDiff';
import { loadLuaEngine } from '../lua/index';
import type { ScriptEngine } from '../scriptEngine';

// Scripting cases need the Lua engine, so they live in their own file and test.
const cases = parseCaseFile('scripting.txt', readFileSync(join(__dirname, 'cases', 'scripting.txt'), 'latin1'));

let redis: RealRedis;
let engine: ScriptEngine;
beforeAll(async () => {
  redis = await startRealRedis();
  engine = await loadLuaEngine();
}, 30_000);
afterAll(async () => {
  await redis?.stop();
});

test('scripting cases match redis-server 7.0 line for line', async () => {
  console.log(`differential: ${cases.length} scripting cases against redis-server ${redis.version}`);
  const differences = await diffCases(redis.port, cases, engine, Date.now());
  expect(differences, describeDifferences(differences, 60)).toEqual([]);
}, 60_000);
