import { beforeAll, describe, expect, it } from 'vitest';
import { ExhaustiveSearch, type ScheduleOutcome } from '../../check/exhaustiveSearch';
import { faultTarget } from '../../check/reductions';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { formatDiagnostic } from '../diagnostic';
import { exhaustiveExplorer, type ExhaustiveScenarioOptions } from './exhaustiveExplore';
import { parseScenario } from '../text/parse';
import { loadScriptEngine } from './run';
import type { Scenario } from '../schema/schema';

let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

function scenario(yaml: string): Scenario {
  const parsed = parseScenario(yaml, { file: 'small.yaml', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  return parsed.scenario;
}

/** Small enough to enumerate every pair twice: 2 clients and r1, short work, a 250 ms grid. */
const BOUNDS: ExhaustiveScenarioOptions['bounds'] = {
  gridMs: 250,
  kinds: ['pause', 'clock-jump', 'partition'],
  pauseMs: [500, 2000],
  outageMs: [1000],
  jumpMs: [5000],
};

/** The two baristas one after the other: B comes in after A is done, so A is quiet for most of the window. */
const TURNS = `
id: small-turns
title: One after the other
seed: 3
clients:
  - { id: A, recipe: lease-with-token, ttl: 1s, work: 300ms }
  - { id: B, recipe: lease-with-token, ttl: 1s, work: 300ms, startAt: 1200ms }
resource: { id: espresso }
`;

/** Two baristas written alike, starting together: alike but for their names. */
const TWINS = `
id: small-twins
title: Twins
seed: 3
clients:
  - { id: A, recipe: lease-with-token, ttl: 1s, work: 300ms }
  - { id: B, recipe: lease-with-token, ttl: 1s, work: 300ms }
resource: { id: espresso }
`;

/** Every schedule's outcome (by its fault indices), every break listed (the search goes on past them). */
function outcomes(s: Scenario, reductions: { quiet: boolean }, maxFaults = 2) {
  const options = exhaustiveExplorer(s, { invariant: 'single-writer', maxFaults, bounds: BOUNDS, reductions }, scripts);
  const seen = new Map<string, ScheduleOutcome>();
  const search = new ExhaustiveSearch({
    ...options,
    stopAtBreak: false,
    onSchedule: (picked, outcome) => seen.set(picked.join(), outcome),
  });
  search.advance(Infinity);
  return { seen, search };
}

/**
 * The breaks of the full enumeration, and those of the reduced search with each covered
 * schedule given the verdict of the schedule that covers it (its prefix, one fault fewer): the
 * two sets must be the same.
 */
function compare(yaml: string) {
  const s = scenario(yaml);
  const full = outcomes(s, { quiet: false });
  const reduced = outcomes(s, { quiet: true });
  const broke = (key: string): boolean => {
    const outcome = reduced.seen.get(key);
    if (outcome === 'quiet') return broke(key.split(',').slice(0, -1).join());
    return outcome === 'broke';
  };
  const fullBreaks = [...full.seen].filter(([, o]) => o === 'broke').map(([k]) => k);
  const reducedBreaks = [...reduced.seen.keys()].filter(broke);
  return { fullBreaks, reducedBreaks, full: full.search.progress, reduced: reduced.search.progress };
}

describe('the reduction finds exactly the breaks the full enumeration finds', () => {
  it('a fault on a target with nothing left to do (same state as at the previous grid point) is skipped, and no break is lost', () => {
    const { fullBreaks, reducedBreaks, full, reduced } = compare(TURNS);
    expect(fullBreaks.length).toBeGreaterThan(0);
    expect(reduced.byQuiet).toBeGreaterThan(0);
    expect(reduced.ran + reduced.byQuiet).toBe(full.ran);
    expect(new Set(reducedBreaks)).toEqual(new Set(fullBreaks));
  }, 120_000);

  it('has no symmetry reduction: two clients written alike break differently by name', () => {
    // Events at one moment run in client order, and each client has its own PRNG stream: A and
    // B are not interchangeable, so skipping "the same schedule with B for A" would lose breaks.
    const { seen, search } = outcomes(scenario(TWINS), { quiet: false }, 1);
    const breaksOf = (target: string) =>
      new Set(
        [...seen]
          .filter(([key, o]) => o === 'broke' && key !== '')
          .map(([key]) => search.choices[Number(key)]!)
          .filter((f) => faultTarget(f) === target)
          .map((f) => JSON.stringify(f.actions.map((a) => ({ ...a, target: 'X', groups: undefined })))),
      );
    expect(breaksOf('A').size + breaksOf('B').size).toBeGreaterThan(0);
    expect(breaksOf('A')).not.toEqual(breaksOf('B'));
  }, 120_000);
});
