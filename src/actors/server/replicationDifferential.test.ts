import { afterAll, beforeAll, expect, test } from 'vitest';
import { formatReply } from '../../redis/cliFormat';
import { startRealPair, type RealPair } from '../../testing/realPair';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { loadScriptEngine } from '../../scenario/running/run';
import { ReplicationPair } from '../../testing/replicationPair';

/**
 * Replication, WAIT and min-replicas cases run against a real primary+replica pair of
 * redis-server 7.0 on loopback and against the simulated pair, reply for reply. Reads on the
 * replica come after a WAIT, so both sides are past the asynchronous part when they compare.
 */
type Step = { on: 'primary' | 'replica'; line: string } | { sleepMs: number };

const p = (line: string): Step => ({ on: 'primary', line });
const r = (line: string): Step => ({ on: 'replica', line });

const CASES: { title: string; steps: Step[] }[] = [
  {
    title: 'a write reaches the replica; WAIT counts its acknowledgement',
    steps: [p('SET k v'), p('WAIT 1 1000'), r('GET k'), r('EXISTS k'), r('DBSIZE')],
  },
  {
    title: 'WAIT 0 and WAIT for more replicas than exist',
    steps: [p('WAIT 0 0'), p('SET a 1'), p('WAIT 2 150'), p('WAIT 1 -1'), p('WAIT x 0'), p('WAIT 1 y')],
  },
  {
    title: 'a replica refuses client writes',
    steps: [r('SET k other'), r('DEL k'), r('INCR n'), r('EXPIRE k 10'), r('SETNX z 1'), r('HSET h f v'), r('GET k')],
  },
  { title: 'WAIT on a replica', steps: [r('WAIT 0 0'), r('WAIT 1 100')] },
  {
    title: 'min-replicas-to-write refuses writes and scripted writes with NOREPLICAS',
    steps: [
      p('CONFIG SET min-replicas-to-write 2'),
      p('SET k v2'),
      p('DEL k'),
      p('INCR n'),
      p('GET k'),
      p(`EVAL "return redis.pcall('SET','k','w')" 0`),
      p(`EVAL "return redis.call('SET','k','w')" 0`),
      p(`EVAL "redis.call('GET','k') return redis.call('DEL','k')" 0`),
      p(`EVAL "return redis.call('GET','k')" 0`),
      p('CONFIG SET min-replicas-to-write 1'),
      p('SET k v3'),
      p('WAIT 1 1000'),
      r('GET k'),
      p('CONFIG SET min-replicas-to-write 0'),
    ],
  },
  {
    title: 'TTLs replicate as absolute times; the replica hides an expired key',
    steps: [
      p('SET t v EX 100'),
      p('WAIT 1 1000'),
      r('TTL t'),
      p('PEXPIRE t 50'),
      p('WAIT 1 1000'),
      { sleepMs: 200 },
      r('GET t'),
      r('EXISTS t'),
      r('TTL t'),
    ],
  },
  {
    title: 'counters and scripts replicate',
    steps: [
      p('INCR c'),
      p('INCRBY c 5'),
      p(`EVAL "redis.call('SET','s','1') return redis.call('INCR','s')" 0`),
      p('WAIT 1 1000'),
      r('GET c'),
      r('GET s'),
    ],
  },
  {
    title: 'a script cannot write on a replica',
    steps: [
      r(`EVAL "return redis.pcall('SET','x','1')" 0`),
      r(`EVAL "return redis.call('SET','x','1')" 0`),
      r(`EVAL "return redis.call('GET','c')" 0`),
    ],
  },
  { title: 'FLUSHALL replicates', steps: [p('FLUSHALL'), p('WAIT 1 1000'), r('DBSIZE')] },
];

/** Splits a redis-cli style line (double quotes only, which is all these cases use). */
function argv(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

let real: RealPair;
let scripts: ScriptEngine;
beforeAll(async () => {
  [real, scripts] = await Promise.all([startRealPair(), loadScriptEngine()]);
}, 30_000);
afterAll(async () => {
  await real?.stop();
});

test('replication, WAIT and NOREPLICAS match a real primary+replica pair', async () => {
  const sim = new ReplicationPair(scripts);
  const differences: string[] = [];
  let lines = 0;
  for (const c of CASES) {
    for (const step of c.steps) {
      if ('sleepMs' in step) {
        await new Promise((resolve) => setTimeout(resolve, step.sleepMs));
        sim.advance(step.sleepMs);
        continue;
      }
      lines++;
      const [realReply] = await real[step.on].send([argv(step.line)]);
      const want = formatReply(realReply!);
      const got = formatReply(sim.run(step.on, argv(step.line)));
      if (process.env.SHOW) console.log(step.on, step.line, '=>', want, '|', got);
      if (want !== got) differences.push(`${c.title}\n  ${step.on}> ${step.line}\n  real: ${want}\n  sim:  ${got}`);
    }
  }
  console.log(
    `replication differential: ${CASES.length} cases, ${lines} command lines against a real primary+replica (redis-server ${real.version})`,
  );
  expect(differences.join('\n')).toBe('');
}, 30_000);
