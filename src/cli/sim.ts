/**
 * `npm run sim -- <lesson.md#scenario-id | scenario.yaml> [--seed N] [--fencing on|off] [--actions file.json] [--json]`
 *
 * Runs a scenario headless and prints its verdicts, event count and trace hash. Exits 1 when
 * the scenario's `expect` does not hold (so CI can solve every lesson), 2 on bad input.
 *
 * With `--explore <invariant> [--explore-seed N] [--runs N]` it searches seeds and fault
 * schedules for a run that breaks the invariant and prints `{ seed, actions }` (the minimal
 * learner actions) as JSON; exits 0 when it found one, 1 when it did not.
 */
import { parseArgs } from 'node:util';
import type { Action } from '../actors/action';
import { exploreScenario } from '../scenario/running/explore';
import { unmetExpectations } from '../scenario/running/expectations';
import { INVARIANTS, type InvariantName } from '../scenario/schema/schema';
import { loadLuaCompiler } from '../scenario/text/luaCompiler';
import { loadScriptEngine, runScenario } from '../scenario/running/run';
import { formatMs } from '../sim/time';
import type { Scenario } from '../scenario/schema/schema';
import { loadActions, loadScenario } from './loadScenario';

const USAGE =
  'usage: npm run sim -- <lesson.md#scenario-id | scenario.yaml> [--seed N] [--fencing on|off] [--actions file.json] [--json]\n' +
  '       npm run sim -- <scenario> --explore <invariant> [--explore-seed N] [--runs N]';

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      allowPositionals: true,
      options: {
        seed: { type: 'string' },
        fencing: { type: 'string' },
        actions: { type: 'string' },
        json: { type: 'boolean' },
        explore: { type: 'string' },
        'explore-seed': { type: 'string' },
        runs: { type: 'string' },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = args;
  if (positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const loaded = loadScenario(positionals[0]!, await loadLuaCompiler());
  if (!loaded.ok) {
    for (const problem of loaded.problems) console.error(problem);
    return 2;
  }
  if (values.explore !== undefined)
    return explore(loaded.scenario, values.explore, values['explore-seed'], values.runs);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0)) {
    console.error(`--seed must be a whole number ≥ 0, got '${values.seed}'`);
    return 2;
  }
  if (values.fencing !== undefined && !['on', 'off'].includes(values.fencing)) {
    console.error(`--fencing must be 'on' or 'off', got '${values.fencing}'`);
    return 2;
  }
  let actions: Action[] = [];
  if (values.actions) {
    const read = loadActions(values.actions, loaded.scenario);
    if (!read.ok) {
      for (const problem of read.problems) console.error(problem);
      return 2;
    }
    actions = read.actions;
  }

  const { scenario } = loaded;
  const result = await runScenario(scenario, {
    ...(seed === undefined ? {} : { seed }),
    ...(values.fencing === undefined ? {} : { fencing: values.fencing === 'on' }),
    actions,
  });
  // `expect` describes the scenario as written; a learner's overrides may change the outcome.
  const asWritten = values.fencing === undefined && actions.length === 0;
  const unmet = asWritten ? unmetExpectations(scenario, result.verdicts) : [];

  if (values.json) {
    console.log(
      JSON.stringify({
        scenario: result.scenario,
        seed: result.seed,
        events: result.events,
        traceHash: result.traceHash,
        verdicts: result.verdicts.map(({ invariant, holds, atMs, eventIds }) => ({ invariant, holds, atMs, eventIds })),
      }),
    );
  } else {
    console.log(`${result.scenario} (seed ${result.seed}): ${result.events} events, trace ${result.traceHash}`);
    for (const v of result.verdicts) {
      console.log(
        v.holds
          ? `  ✓ ${v.invariant} holds`
          : `  ✕ ${v.invariant} broken at ${formatMs(v.atMs ?? 0)} (events ${v.eventIds.join(', ')}): ${v.explanation}`,
      );
    }
  }
  for (const problem of unmet) console.error(`expectation not met: ${problem}`);
  return unmet.length ? 1 : 0;
}

/** --explore: prints the minimal breaking run as JSON. */
async function explore(
  scenario: Scenario,
  invariant: string,
  seedText: string | undefined,
  runsText: string | undefined,
): Promise<number> {
  if (!(INVARIANTS as readonly string[]).includes(invariant)) {
    console.error(`--explore needs an invariant, one of: ${INVARIANTS.join(', ')} (got '${invariant}')`);
    return 2;
  }
  const explorerSeed = wholeNumber(seedText, '--explore-seed');
  const runs = wholeNumber(runsText, '--runs');
  if (explorerSeed === null || runs === null) return 2;
  const result = exploreScenario(
    scenario,
    {
      invariant: invariant as InvariantName,
      ...(explorerSeed === undefined ? {} : { explorerSeed }),
      ...(runs === undefined ? {} : { runs }),
    },
    await loadScriptEngine(),
  );
  console.log(
    JSON.stringify({
      scenario: scenario.id,
      invariant,
      found: result.found,
      seed: result.seed,
      actions: result.actions,
      runs: result.runs,
      // Nothing found is evidence, not proof: say what was searched.
      ...(result.found ? {} : { searched: result.summary }),
      ...(result.verdict && !result.verdict.holds
        ? { atMs: result.verdict.atMs, eventIds: result.verdict.eventIds, explanation: result.verdict.explanation }
        : {}),
    }),
  );
  return result.found ? 0 : 1;
}

/** A flag's whole number ≥ 0: undefined when absent, null (after saying why) when malformed. */
function wholeNumber(text: string | undefined, flag: string): number | undefined | null {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (Number.isInteger(n) && n >= 0) return n;
  console.error(`${flag} must be a whole number ≥ 0, got '${text}'`);
  return null;
}

main().then((code) => process.exit(code));
