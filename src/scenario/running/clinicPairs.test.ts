import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../cli/loadScenario';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { exploreScenario } from './explore';
import { offeredFaultKinds } from './offeredFaults';
import { loadScriptEngine } from './run';
import type { InvariantName, Scenario } from '../schema/schema';
import { loadTestScripts } from '../../testing/testKit';

/** As many runs as a lesson player's "Find the bug for me" (BugFinder.tsx) searches. */
const PLAYER_SEARCH_RUNS = 500;

let scripts: ScriptEngine;
beforeAll(async () => {
  await loadTestScripts();
  scripts = await loadScriptEngine();
});

/**
 * The review clinic's promise (course 4): each lesson's workbench block names a buggy recipe and
 * the invariant a learner asks the explorer to break (`ref: scenarios/clinic-x.yaml`, `break:`).
 * lessons:check proves the block's own search. The lesson also shows the recipe and its fix
 * (`clinic-x-fixed.yaml`) as scenario blocks, whose "Find the bug for me" searches 500 runs with
 * the faults the scenario's controls offer: there too the recipe must break and the fix must not.
 */
const pairs = readdirSync('lessons')
  .filter((f) => /^\d\d-.+\.md$/.test(f))
  .flatMap((f) =>
    [
      ...readFileSync(`lessons/${f}`, 'utf8').matchAll(
        /```workbench\n[^`]*?ref: scenarios\/(\S+)\.yaml\n[^`]*?break: (\S+)\n/g,
      ),
    ].map((m) => ({ lesson: f, name: m[1]!, invariant: m[2]! as InvariantName })),
  );

function load(name: string): Scenario {
  const loaded = loadScenario(`lessons/scenarios/${name}.yaml`);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

function search(scenario: Scenario, invariant: InvariantName) {
  const result = exploreScenario(
    scenario,
    { invariant, runs: PLAYER_SEARCH_RUNS, kinds: offeredFaultKinds(scenario) },
    scripts,
  );
  return result.found ? result : null;
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
      const broken = search(load(name), invariant);
      expect(broken, `${name}: no break of ${invariant} in ${PLAYER_SEARCH_RUNS} runs`).not.toBeNull();
      expect(broken!.verdict?.holds).toBe(false);
      const fixed = search(load(`${name}-fixed`), invariant);
      expect(fixed?.actions, `${name}-fixed broke ${invariant}`).toBeUndefined();
    }, 60_000);
  }
});
