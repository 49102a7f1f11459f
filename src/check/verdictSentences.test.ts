import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../lessons/catalog';
import { readLessonSources } from '../lessons/sources';
import { runScenarioTrace } from '../scenario/running/run';
import { formatMs } from '../sim/time';
import type { TraceEvent } from '../sim/traceEvents';
import type { Verdict } from './verdict';

/** The actors an event is about: who did it, whose write, whose lease. */
function actorsOf(e: TraceEvent): string[] {
  const data = e.data as { from?: unknown; owner?: unknown };
  return [e.actor, data.from, data.owner].filter((a): a is string => typeof a === 'string');
}

/**
 * What a verdict's sentence says that its proof does not show: a moment ("at 2.309 s") that is
 * neither the verdict's nor one of its proof events', an actor named who is in none of them.
 */
function sentenceMismatches(v: Verdict, trace: readonly TraceEvent[], labels: ReadonlyMap<string, string>): string[] {
  const proof = v.eventIds.map((id) => trace[id]!);
  const times = new Set([v.atMs!, ...proof.map((e) => e.at)].map(formatMs));
  const named = new Set(proof.flatMap(actorsOf).map((id) => labels.get(id) ?? id));
  const out: string[] = [];
  // "at 2.309 s" is a moment, and must be one of its events'; "more than 5 s" or "a bound of 6 s" is a setting.
  for (const [, said] of v.explanation.matchAll(/\bat (\d+(?:\.\d+)? m?s)\b/g))
    if (!times.has(said!)) out.push(`says at ${said}, which is no event of its proof (${[...times].join(', ')})`);
  for (const label of labels.values()) {
    if (new RegExp(`\\b${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(v.explanation) && !named.has(label))
      out.push(`names ${label}, who is in none of its events`);
  }
  return out;
}

// Every scenario of every lesson, run as the player first shows it: a broken verdict's sentence
// names only times and actors that its evidence links show (a learner clicks them to check).
describe('verdict sentences', () => {
  const { lessons } = buildCatalog(readLessonSources('lessons'));
  const blocks = lessons.flatMap((l) =>
    l.blocks.flatMap((b) => (b.kind === 'scenario' ? [{ file: l.file, scenario: b.scenario }] : [])),
  );

  it('covers the lessons', () => expect(blocks.length).toBeGreaterThan(40));

  it('say only what their proof events show, in every lesson run', async () => {
    const problems: string[] = [];
    for (const { file, scenario } of blocks) {
      const { verdicts, trace } = await runScenarioTrace(scenario, { seed: scenario.seed });
      const start = trace[0];
      const labels = new Map(start?.kind === 'run.start' ? start.data.actors.map((a) => [a.id, a.label]) : []);
      for (const v of verdicts) {
        if (v.holds) continue;
        for (const m of sentenceMismatches(v, trace, labels))
          problems.push(`${file}#${scenario.id} ${v.invariant}: "${v.explanation}" ${m}`);
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
