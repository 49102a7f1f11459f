import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { exhaustive } from '../../check/exhaustiveSearch';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { formatDiagnostic } from '../diagnostic';
import type { InvariantName, Scenario } from '../schema/schema';
import { parseScenario } from '../text/parse';
import { describeFault } from '../text/describeFault';
import { exhaustiveExplorer } from './exhaustiveExplore';
import { loadScriptEngine } from './run';

let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

const OWNER_CHECKED_DEL = `local held = redis.call('GET', KEYS[1]) if held == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Each clinic lesson's fix with its guard taken away again, one small edit each: the owner check
 * of the release, the expiry, the token check, the lease's length, the retry cap, the watchdog's
 * cap. `break` is the invariant the lesson's workbench block says the recipe breaks.
 */
const MUTANTS: { fixed: string; change: string; from: string | RegExp; to: string; break: InvariantName }[] = [
  {
    fixed: 'clinic-plain-del-fixed',
    change: 'the release deletes without checking the owner',
    from: OWNER_CHECKED_DEL,
    to: `return redis.call('DEL', KEYS[1])`,
    break: 'released-by-owner',
  },
  {
    fixed: 'clinic-setnx-expire-fixed',
    change: 'the SET gets no expiry',
    from: /, NX, PX, 4000\]/g,
    to: ', NX]',
    break: 'progress',
  },
  {
    fixed: 'clinic-unfenced-write-fixed',
    change: 'the machine stops checking tokens',
    from: 'fencing: true, ',
    to: '',
    break: 'writes-in-lease-order',
  },
  {
    fixed: 'clinic-short-ttl-fixed',
    change: 'the lease is shortened to 4 s, a second more than the shot',
    from: /'\{value\}', 45000\]/g,
    to: "'{value}', 4000]",
    break: 'single-writer',
  },
  {
    fixed: 'clinic-redlock-fixed',
    change: 'the ledger stops checking the revision',
    from: ', fencing: true',
    to: '',
    break: 'writes-in-lease-order',
  },
  {
    fixed: 'clinic-unbounded-retries-fixed',
    change: 'the retries have no cap',
    from: ', attempts: 5',
    to: '',
    break: 'bounded-wait',
  },
  {
    // Without its cap the watchdog keeps the wedged barista's lease for ever: broken as written.
    fixed: 'clinic-runaway-renewal-fixed',
    change: "the watchdog's cap is gone",
    from: /, maxHold: 4s/g,
    to: '',
    break: 'progress',
  },
  {
    fixed: 'clinic-token-before-lock-fixed',
    change: 'the machine stops checking tokens',
    from: 'fencing: true, ',
    to: '',
    break: 'writes-in-lease-order',
  },
  {
    fixed: 'clinic-review-fixed',
    change: 'the release deletes without checking the owner',
    from: OWNER_CHECKED_DEL,
    to: `return redis.call('DEL', KEYS[1])`,
    break: 'released-by-owner',
  },
];

function mutated(name: string, from: string | RegExp, to: string): Scenario {
  const text = readFileSync(`lessons/scenarios/${name}.yaml`, 'utf8');
  const changed = typeof from === 'string' ? text.replaceAll(from, to) : text.replace(from, to);
  // A mutation that no longer matches its fix would test the fix itself: fail loudly instead.
  expect(changed, `the edit must change ${name}.yaml`).not.toBe(text);
  const parsed = parseScenario(changed, { file: `${name}.yaml (mutated)`, line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  return parsed.scenario;
}

/**
 * Issue 32's bar for the exhaustive mode: a fix that lost its guard does not pass "no break within
 * these bounds". Breadth first, so each is found with the fewest faults (one, here, or none), long
 * before the millions of two-fault schedules would be run.
 */
describe('every schedule of up to two faults catches a clinic fix with its guard removed', () => {
  it.each(MUTANTS)('$fixed, when $change, breaks $break', (mutant) => {
    const scenario = mutated(mutant.fixed, mutant.from, mutant.to);
    const result = exhaustive(exhaustiveExplorer(scenario, { invariant: mutant.break, maxFaults: 2 }, scripts));
    const found = result.found ? result.faults.map(describeFault).join(' ') || 'as written' : 'nothing';
    expect(result.found, `found: ${found}`).toBe(true);
  });
});
