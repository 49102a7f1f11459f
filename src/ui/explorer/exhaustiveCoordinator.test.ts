import { beforeAll, describe, expect, it } from 'vitest';
import { exhaustive } from '../../check/exhaustiveSearch';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { exhaustiveExplorer } from '../../scenario/running/exhaustiveExplore';
import { loadScriptEngine } from '../../scenario/running/run';
import type { Scenario } from '../../scenario/schema/schema';
import { parseScenario } from '../../scenario/text/parse';
import { startExhaustive, type ExhaustiveOutcome } from './exhaustiveCoordinator';
import { createExplorerApi, type ExhaustiveJob } from './explorerApi';
import { ExplorerPool, inProcessExplorer, type ExplorerHandle } from './pool';

let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

function scenario(yaml: string): Scenario {
  const parsed = parseScenario(yaml, { file: 'small.yaml', line: 1 });
  if (!parsed.ok) throw new Error('bad fixture');
  return parsed.scenario;
}

/** A plain DEL: a pause of A past its lease, then A's release deletes B's lock. */
const PLAIN_DEL = scenario(`
id: small-plain-del
title: Plain DEL
seed: 3
clients:
  - { id: A, recipe: lease-plain-del, ttl: 1s, work: 300ms }
  - { id: B, recipe: lease-plain-del, ttl: 1s, work: 300ms, startAt: 200ms }
resource: { id: espresso }
`);

/** The same with the owner check: nothing within the bounds breaks it. */
const CHECKED = scenario(`
id: small-checked
title: Checked release
seed: 3
clients:
  - { id: A, recipe: lease-with-token, ttl: 1s, work: 300ms }
  - { id: B, recipe: lease-with-token, ttl: 1s, work: 300ms, startAt: 200ms }
resource: { id: espresso }
`);

const BOUNDS = { gridMs: 250, kinds: ['pause', 'partition'] as const, pauseMs: [500, 2000], outageMs: [1000] };

/** In-process workers, each with its own engine state, counting the ranges each was given. */
function pool(size: number): { pool: ExplorerPool; ranges: number[] } {
  const ranges = Array.from({ length: size }, () => 0);
  let started = 0;
  const start = (): ExplorerHandle => {
    const i = started++;
    const handle = inProcessExplorer(createExplorerApi(scripts));
    const exhaustRange = handle.api.exhaustRange;
    handle.api.exhaustRange = async (...args) => {
      ranges[i]!++;
      // Answer on a later turn, so the workers' ranges interleave as real workers' do.
      await new Promise((resolve) => setTimeout(resolve, (i * 3) % 5));
      return exhaustRange(...args);
    };
    return handle;
  };
  return { pool: new ExplorerPool(start, size), ranges };
}

async function search(s: Scenario, invariant: 'released-by-owner', maxFaults: number, workers: number) {
  const job: ExhaustiveJob = { scenario: s, options: { invariant, maxFaults, bounds: { ...BOUNDS } } };
  const p = pool(workers);
  const outcome: ExhaustiveOutcome = await startExhaustive(p.pool, job, () => {}).outcome;
  if (outcome.state !== 'done') throw new Error(`search ${outcome.state}`);
  return { result: outcome.result, ranges: p.ranges };
}

describe('an exhaustive search shared by several workers', () => {
  it('finds the break one worker walking alone finds: the first, with the fewest faults', async () => {
    const alone = exhaustive(
      exhaustiveExplorer(PLAIN_DEL, { invariant: 'released-by-owner', maxFaults: 2, bounds: { ...BOUNDS } }, scripts),
    );
    expect(alone.found).toBe(true);
    const { result, ranges } = await search(PLAIN_DEL, 'released-by-owner', 2, 3);
    expect(result.index).toBe(alone.index);
    expect(result.faults).toEqual(alone.faults);
    expect(result.actions).toEqual(alone.actions);
    expect(result.verdict).toEqual(alone.verdict);
    expect(ranges.filter((n) => n > 0).length).toBeGreaterThan(1);
  });

  it('claims no break only when every schedule was run or covered, with the counts one worker gives', async () => {
    const alone = exhaustive(
      exhaustiveExplorer(CHECKED, { invariant: 'released-by-owner', maxFaults: 2, bounds: { ...BOUNDS } }, scripts),
    );
    expect(alone.complete).toBe(true);
    const { result, ranges } = await search(CHECKED, 'released-by-owner', 2, 2);
    expect(result.found).toBe(false);
    expect(result.complete).toBe(true);
    // The quiet reduction skips exactly what it skips alone: each worker had the prefixes' runs.
    expect(result.progress).toEqual(alone.progress);
    expect(result.bounds).toEqual(alone.bounds);
    expect(ranges.every((n) => n > 0)).toBe(true);
  });
});
