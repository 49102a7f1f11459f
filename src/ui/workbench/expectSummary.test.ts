import { describe, expect, it } from 'vitest';
import type { Block } from '../../lessons/types';
import { expectSummary } from './expectSummary';

type ScenarioBlock = Extract<Block, { kind: 'scenario' }>;

function block(id: string, line: number, expectations: { invariant: string; outcome: string }[]): ScenarioBlock {
  return { kind: 'scenario', line, scenario: { id, expect: expectations } } as unknown as ScenarioBlock;
}

const unmet = {
  file: 'lessons/x.md',
  line: 12,
  col: 1,
  message: "scenario 'paused': expected single-writer violated, but it held",
};

describe("a previewed scenario's expect", () => {
  it('says what it states while the runs are under way', () => {
    expect(
      expectSummary(block('paused', 12, [{ invariant: 'single-writer', outcome: 'violated' }]), { state: 'running' }),
    ).toMatchObject({
      tone: 'pending',
      text: 'expect: single-writer violated: running…',
    });
  });

  it('came true when the runs found nothing of this scenario', () => {
    const said = expectSummary(block('calm', 30, [{ invariant: 'all', outcome: 'holds' }]), {
      state: 'done',
      diagnostics: [unmet],
      runs: 2,
    });
    expect(said).toMatchObject({ tone: 'ok', text: "expect: all holds: came true in the preview's run", problems: [] });
  });

  it('gathers the problems that belong to this scenario, not those of another at another line', () => {
    const other = { ...unmet, line: 30, message: "scenario 'calm': crashed" };
    const said = expectSummary(block('paused', 12, [{ invariant: 'single-writer', outcome: 'violated' }]), {
      state: 'done',
      diagnostics: [unmet, other],
      runs: 2,
    });
    expect(said.tone).toBe('bad');
    expect(said.text).toBe("expect: single-writer violated: 1 problem in the preview's run");
    expect(said.problems).toEqual([unmet]);
  });

  it('says when nothing is expected, so nothing is checked', () => {
    expect(expectSummary(block('free', 5, []), { state: 'done', diagnostics: [], runs: 1 }).text).toBe(
      'expect: none given, so its quiet run is not checked',
    );
  });
});
