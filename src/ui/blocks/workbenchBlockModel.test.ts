import { describe, expect, it } from 'vitest';
import type { ExploreResult } from '../../check/explorer';
import type { Verdict } from '../../check/verdict';
import { parseScenario } from '../../scenario/text/parse';
import { fixedState, loadBlockWork, saveBlockWork } from './workbenchBlockModel';

const parsed = parseScenario(
  'id: s\ntitle: S\nclients: [{ id: A, recipe: lease-with-token, ttl: 5s }]\nresource: { id: r }\nexpect: { invariant: single-writer, outcome: holds }\n',
  { file: 's.yaml', line: 1 },
);
if (!parsed.ok) throw new Error('fixture');
const scenario = parsed.scenario;
const spec = { break: 'single-writer' as const, runs: 500 };
const result = { summary: { runs: 500, kinds: ['pause'], seeds: 250, maxFaults: 3 } } as unknown as ExploreResult;
const verdict = (holds: boolean): Verdict => ({
  invariant: 'single-writer',
  holds,
  atMs: holds ? null : 5,
  eventIds: [],
  explanation: '',
  violations: holds ? 0 : 1,
});

describe('the workbench block', () => {
  it('is Fixed only when the explorer searched this very version without a break and its own expect holds', () => {
    const notFound = { scenario, outcome: { state: 'not-found' as const, result, elapsedMs: 1 } };
    expect(fixedState(scenario, null, null, spec).state).toBe('open');
    expect(
      fixedState(scenario, { scenario, outcome: { state: 'found', result, elapsedMs: 1 } }, [verdict(true)], spec)
        .state,
    ).toBe('broken');
    expect(fixedState(scenario, notFound, null, spec).state).toBe('checking');
    expect(fixedState(scenario, notFound, [verdict(false)], spec)).toMatchObject({
      state: 'failing',
      text: expect.stringMatching(/^Not fixed: no run broke single writer, but .*single-writer.* violated at 5 ms\.$/),
    });
    const fixed = fixedState(scenario, notFound, [verdict(true)], spec);
    expect(fixed).toEqual({
      state: 'fixed',
      text: 'Fixed: your version passes its checks, and the explorer found no run that breaks single writer in 500 runs. A search can miss a bug, so read your fix once more.',
    });
    // An edit after the search is not what was searched.
    expect(fixedState({ ...scenario, seed: 9 }, notFound, [verdict(true)], spec).state).toBe('open');
  });

  it('keeps the edit per lesson and block, and forgets it when it is back to the recipe', () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    };
    saveBlockWork(storage, 'lesson-a/wb', 'id: mine');
    expect(loadBlockWork(storage, 'lesson-a/wb')).toBe('id: mine');
    expect(loadBlockWork(storage, 'lesson-b/wb')).toBeNull();
    saveBlockWork(storage, 'lesson-a/wb', null);
    expect(loadBlockWork(storage, 'lesson-a/wb')).toBeNull();
  });
});
