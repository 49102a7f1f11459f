import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAULT_KINDS } from '../check/explorer';
import { loadScenario } from '../cli/loadScenario';
import type { ScriptEngine } from '../redis/scriptEngine';
import { exploreScenario } from './explore';
import { loadScriptEngine } from './run';
import type { InvariantName, Scenario } from './schema';
import { loadTestScripts } from './testKit';

let scripts: ScriptEngine;
beforeAll(async () => {
  await loadTestScripts();
  scripts = await loadScriptEngine();
});

/**
 * The review clinic's promise (course 4): each lesson marks a buggy recipe and the invariant a
 * learner asks the explorer to break (`<!-- workbench: clinic-x break: invariant -->`). The
 * explorer must break the recipe within two batches of the player's search, and the fixed recipe
 * (`clinic-x-fixed.yaml`) must come through the same two, searched the way "Find the bug for me"
 * does: 50 schedules per batch, explorer seeds 1, 2, the fault kinds the scenario's controls
 * offer. (The player searches six batches; the measured sweep is in the branch's report.)
 */
const pairs = readdirSync('lessons')
  .filter((f) => /^\d\d-.+\.md$/.test(f))
  .flatMap((f) => [...readFileSync(`lessons/${f}`, 'utf8').matchAll(/<!-- workbench: (\S+) break: (\S+) -->/g)].map((m) => ({ lesson: f, name: m[1]!, invariant: m[2]! as InvariantName })));

function load(name: string): Scenario {
  const loaded = loadScenario(`lessons/scenarios/${name}.yaml`);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

function search(scenario: Scenario, invariant: InvariantName, batches: number) {
  const kinds = FAULT_KINDS.filter((k) => (scenario.controls as readonly string[]).includes(k));
  for (let seed = 1; seed <= batches; seed++) {
    const result = exploreScenario(scenario, { invariant, runs: 50, kinds, explorerSeed: seed }, scripts);
    if (result.found) return result;
  }
  return null;
}

describe('the review clinic: every buggy recipe breaks, every fix holds', () => {
  it('marks all eight findings and the closing review', () => {
    expect(pairs.map((p) => p.name).sort()).toEqual([
      'clinic-plain-del',
      'clinic-redlock',
      'clinic-review',
      'clinic-runaway-renewal',
      'clinic-setnx-expire',
      'clinic-short-ttl',
      'clinic-token-before-lock',
      'clinic-unbounded-retries',
      'clinic-unfenced-write',
    ]);
  });

  for (const { lesson, name, invariant } of pairs) {
    it(`${lesson}: the explorer breaks ${invariant} in ${name}, and not in its fix`, () => {
      const broken = search(load(name), invariant, 2);
      expect(broken, `${name}: no break of ${invariant} in 100 runs`).not.toBeNull();
      expect(broken!.verdict?.holds).toBe(false);
      const fixed = search(load(`${name}-fixed`), invariant, 2);
      expect(fixed?.actions, `${name}-fixed broke ${invariant}`).toBeUndefined();
    }, 60_000);
  }
});
