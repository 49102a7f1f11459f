import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { changesNothing } from '../../redis/commandTable';
import { parseScenario } from '../../scenario/text/parse';
import { Simulation } from '../../scenario/running/simulation';
import { simTime } from '../../sim/time';
import type { Action } from '../../actors/action';
import { answerRead } from './consoleRead';
import { withReads } from './consoleModel';

// Barista A holds `lock` (10 s lease) from 0 to its release at about 5 s.
const SCENARIO = `
id: console-reads
title: Console reads
clients:
  - id: A
    label: Barista A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 10000] }
      - { wait: 5s }
      - { write: espresso }
      - { redis: [DEL, lock] }
resource: { id: espresso }
`;

function scenario() {
  const parsed = parseScenario(SCENARIO, { file: 'reads.yaml', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('\n'));
  return parsed.scenario;
}

const config = (actions: Action[] = []) => ({ seed: 1, fencing: false, actions });

describe('which console commands are reads', () => {
  it('takes GET, TTL, PTTL, EXISTS, HGETALL and a refused command for reads, and no command that can change the node', () => {
    for (const argv of [
      ['GET', 'lock'],
      ['ttl', 'lock'],
      ['PTTL', 'lock'],
      ['EXISTS', 'lock', 'x'],
      ['HGETALL', 'h'],
      ['CONFIG', 'GET', 'maxmemory'],
      ['NOSUCH'],
      ['GET'],
    ]) {
      expect(changesNothing(argv), argv.join(' ')).toBe(true);
    }
    for (const argv of [
      ['SET', 'x', '1'],
      ['DEL', 'lock'],
      ['EXPIRE', 'lock', '5'],
      ['EVAL', 'return 1', '0'],
      ['DEBUG', 'SLEEP', '1'],
      ['CONFIG', 'SET', 'maxmemory', '1'],
      ['FLUSHALL'],
      ['PUBLISH', 'c', 'm'],
    ]) {
      expect(changesNothing(argv), argv.join(' ')).toBe(false);
    }
  });
});

describe('a console read, answered at its moment of the run', () => {
  it("answers from the node's state at that moment: the lock while A holds it, nothing after A let it go", () => {
    const held = answerRead(scenario(), config(), { atMs: 2000, node: 'r1', argv: ['EXISTS', 'lock'] });
    const gone = answerRead(scenario(), config(), { atMs: 8000, node: 'r1', argv: ['GET', 'lock'] });
    expect(held).toEqual(['(integer) 1']);
    expect(gone).toEqual(['(nil)']);
  });

  it("sees the learner's own earlier writes, including one at the same moment", () => {
    const actions: Action[] = [{ at: simTime(3000), do: 'command', target: 'r1', argv: ['SET', 'x', '1'] }];
    expect(answerRead(scenario(), config(actions), { atMs: 3000, node: 'r1', argv: ['GET', 'x'] })).toEqual(['"1"']);
    expect(answerRead(scenario(), config(), { atMs: 3000, node: 'r1', argv: ['GET', 'x'] })).toEqual(['(nil)']);
  });

  it("answers on a node over its maxmemory, which evicts before it replies (lesson 15's run at 3.852 s)", () => {
    const full = parseScenario(readFileSync('lessons/scenarios/eviction-lost-lock.yaml', 'utf8'), {
      file: 'eviction-lost-lock.yaml',
      line: 1,
    });
    if (!full.ok) throw new Error(full.diagnostics.map((d) => d.message).join('\n'));
    expect(answerRead(full.scenario, config(), { atMs: 3852, node: 'r1', argv: ['EXISTS', 'lock'] })).toEqual([
      '(integer) 0',
    ]);
  });

  it('has no answer from a crashed node', () => {
    const actions: Action[] = [{ at: simTime(1000), do: 'crash', target: 'r1' }];
    expect(answerRead(scenario(), config(actions), { atMs: 2000, node: 'r1', argv: ['GET', 'lock'] })).toBeNull();
  });

  it('leaves the run as it was: the same events whether or not it was asked', () => {
    const before = new Simulation(scenario(), config()).run().sim.trace.hash();
    answerRead(scenario(), config(), { atMs: 2000, node: 'r1', argv: ['GET', 'lock'] });
    expect(new Simulation(scenario(), config()).run().sim.trace.hash()).toBe(before);
  });
});

describe("the console's transcript with reads", () => {
  it('puts each read at its moment, after a written command of the same moment, with its reply once answered', () => {
    const written = [{ id: 7, at: 3000, node: 'r1', command: 'SET x 1', reply: ['OK'], warning: null }];
    const reads = [
      { atMs: 4000, node: 'r1', argv: ['GET', 'x'] },
      { atMs: 3000, node: 'r1', argv: ['TTL', 'x'] },
      { atMs: 1000, node: 'r1', argv: ['GET', 'x'] },
    ];
    const lines = withReads(written, reads, [['"1"'], ['(integer) -1'], ['(nil)']], (r) => r.atMs <= 3500);
    expect(lines.map((l) => [l.at, l.command, l.reply])).toEqual([
      [1000, 'GET x', ['(nil)']],
      [3000, 'SET x 1', ['OK']],
      [3000, 'TTL x', ['(integer) -1']],
    ]);
    expect(withReads(written, reads, null, () => true)[0]?.reply).toBeUndefined();
  });
});
