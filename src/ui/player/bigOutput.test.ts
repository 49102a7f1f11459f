import { beforeAll, describe, expect, it } from 'vitest';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { parseScenario } from '../../scenario/text/parse';
import { loadScriptEngine } from '../../scenario/running/run';
import type { Scenario } from '../../scenario/schema/schema';
import { simTime } from '../../sim/time';
import { computeRun } from '../worker/computeRun';
import { CHARS_SHOWN, clipReply, KEYS_SHOWN, keysNote, REPLY_LINES_SHOWN } from './bigOutput';
import { consoleTranscript } from './consoleModel';
import { RunInspector } from './inspect';

/**
 * A console command can fill a node with thousands of keys or answer with megabytes. What crosses
 * to the page, and what the page draws, is a readable slice with a note of the rest (issue 36:
 * 100,000 keys froze the page 6.6 s and every later command 1.4–2.8 s).
 */

const YAML = `
id: big
title: A big keyspace
seed: 1
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, work: 1s }
resource: { id: store, kind: store }
controls: [pause]
`;

let scripts: ScriptEngine;
let scenario: Scenario;
beforeAll(async () => {
  scripts = await loadScriptEngine();
  const parsed = parseScenario(YAML, { file: 'big.yaml', line: 1 });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  scenario = parsed.scenario;
});

const fill = `for i = 1, 3000 do redis.call('SET', 'key:' .. i, i) end redis.call('SET', 'a-long', string.rep('x', 50000)) return 1`;
const config = {
  seed: 1,
  fencing: false,
  actions: [
    { at: simTime(100), do: 'command' as const, target: 'r1', argv: ['EVAL', fill, '0'] },
    { at: simTime(200), do: 'command' as const, target: 'r1', argv: ['KEYS', '*'] },
  ],
};

describe('a big keyspace in "Inside the world"', () => {
  it('lists the first keys by name, counts them all, and cuts a long value', () => {
    const run = computeRun(scenario, config, scripts);
    const last = run.events.length - 1;
    const node = new RunInspector(scenario, config, scripts).at(run.events, last, 300).nodes[0]!;
    // 3,000 keys and `a-long`; A's lock is released by the run's end.
    expect(node.keyCount).toBe(3001);
    expect(node.keys).toHaveLength(KEYS_SHOWN);
    expect(node.keys.map((k) => k.key)).toEqual([...node.keys.map((k) => k.key)].sort());
    const long = node.keys.find((k) => k.key === 'a-long')!;
    expect(long.value.length).toBeLessThan(CHARS_SHOWN + 80);
    expect(long.value).toContain('(50,000 characters; the first 2,000 shown)');
    expect(keysNote(node.keys.length, node.keyCount)).toBe(
      `The first ${KEYS_SHOWN} of 3,001 keys, by name. Read any other in the console (GET key, TTL key, SCAN 0 MATCH pattern).`,
    );
  });

  it('says nothing when every key is listed', () => {
    expect(keysNote(3, 3)).toBeNull();
  });
});

describe('a big console reply', () => {
  it('draws the first lines and says how many it left out', () => {
    const run = computeRun(scenario, config, scripts);
    const keys = consoleTranscript(run.events, run.events.length - 1).find((e) => e.command === 'KEYS *')!;
    // At 200 ms A still holds `lock`: 3,002 keys.
    expect(keys.reply).toHaveLength(3002);
    const { lines, note } = clipReply(keys.reply!);
    expect(lines).toHaveLength(REPLY_LINES_SHOWN);
    expect(note).toBe(
      `… 2,802 more lines not drawn (3,002 in all). Ask for less: SCAN 0 MATCH pattern COUNT 100, or GETRANGE key 0 99.`,
    );
  });

  it('cuts one very long line and leaves a short reply whole', () => {
    const { lines, note } = clipReply(['x'.repeat(10_000_000)]);
    expect(lines[0]).toHaveLength(CHARS_SHOWN + '… (10,000,000 characters; the first 2,000 shown)'.length);
    expect(note).toBeNull();
    expect(clipReply(['PONG'])).toEqual({ lines: ['PONG'], note: null });
  });
});
