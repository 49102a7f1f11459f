import type { Block } from '../../lessons/types';
import type { Diagnostic } from '../../scenario/diagnostic';
import type { PreviewRuns } from './usePreviewRuns';

type ScenarioBlock = Extract<Block, { kind: 'scenario' }>;

/** What one previewed scenario's `expect` came to, in words, with the problems that belong to it. */
export interface ExpectSummary {
  tone: 'ok' | 'bad' | 'pending';
  text: string;
  problems: Diagnostic[];
}

/**
 * Says beside a previewed scenario what its `expect` came to in the preview's runs, so an author
 * sees which scenario a problem belongs to. It reads the problems the runs already found
 * (scenarioExpectations.ts puts each at the scenario's opening fence, named `scenario 'id'`),
 * so nothing runs twice.
 */
export function expectSummary(block: ScenarioBlock, runs: PreviewRuns): ExpectSummary {
  const said = block.scenario.expect.map((e) => `${e.invariant} ${e.outcome}`).join(', ');
  const stated = said ? `expect: ${said}` : 'expect: none given, so its quiet run is not checked';
  if (runs.state !== 'done') return { tone: 'pending', text: `${stated}: running…`, problems: [] };
  const name = `scenario '${block.scenario.id}'`;
  const problems = runs.diagnostics.filter((d) => d.line === block.line && d.message.startsWith(name));
  if (problems.length)
    return {
      tone: 'bad',
      text: `${stated}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the preview's run`,
      problems,
    };
  return { tone: 'ok', text: said ? `${stated}: came true in the preview's run` : stated, problems };
}
