import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { textBox } from './layers/labelLayout';
import { buildTimelineModel } from './model';
import { lessonScenarios, loadScripts, referenceScenario, run } from './testing/lessonRuns';
import { timelineSvg } from './timelineSvg';

describe('Sentinel’s stages on its lanes', () => {
  beforeAll(loadScripts);

  it('are one mark per sentinel for a failover, named as the lessons name the stages', () => {
    const { events, verdicts } = run(referenceScenario('failover-fencing'));
    const model = buildTimelineModel(events, verdicts);
    const stages = model.points.filter((p) => p.kind === 'sentinel').map((p) => [p.lane, p.lines]);
    expect(stages).toEqual([
      ['s1', ['SDOWN', 'ODOWN', 'voted', 'switched']],
      ['s2', ['SDOWN', 'ODOWN', 'voted', 'switched']],
      ['s3', ['SDOWN', 'ODOWN', 'elected', 'promoted']],
    ]);
    // The leader's mark stands for every step it took, so its tooltip can tell them all.
    const leader = model.points.find((p) => p.kind === 'sentinel' && p.lane === 's3')!;
    expect(leader.eventIds!.map((id) => model.eventById.get(id)!.kind)).toEqual([
      'sentinel.sdown',
      'sentinel.odown',
      'sentinel.vote',
      'sentinel.elected',
      'failover.start',
      'failover.promote',
      'sentinel.switch',
    ]);
  });

  // 1440 px and 390 px screens give the player's svg about these widths.
  for (const widthPx of [1300, 350]) {
    it(`show a failover’s stages on every sentinel lane of every lesson, inside the picture, at ${widthPx} px`, () => {
      const problems: string[] = [];
      let stageMarks = 0;
      for (const { spec, scenario } of lessonScenarios()) {
        if (!scenario.redis?.sentinels) continue;
        const { events, verdicts } = run(scenario);
        const model = buildTimelineModel(events, verdicts);
        const { document } = parseHTML('<!doctype html><html><body></body></html>');
        const svg = timelineSvg(document as unknown as Document, model, {
          width: widthPx,
          cursorMs: model.endMs,
          idPrefix: 'tl',
        }) as unknown as Element;
        const plotLeft = Number(
          /translate\(([-\d.]+)/.exec(svg.querySelector('g.tl-plot')?.getAttribute('transform') ?? '')?.[1] ?? 0,
        );
        for (const glyph of svg.querySelectorAll('g.tl-glyph.tl-sentinel')) {
          const words = [...glyph.querySelectorAll('text.tl-token')].map((t) => t.textContent);
          // The failover's stages; a passing doubt ("SDOWN", "up again") may give way.
          if (!words.includes('ODOWN')) continue;
          stageMarks++;
          if (glyph.classList.contains('tl-unlabelled'))
            problems.push(`${spec}: a stage mark without its words (${words.join(', ')})`);
          const px = Number(/translate\(([-\d.]+)/.exec(glyph.getAttribute('transform') ?? '')![1]);
          for (const text of glyph.querySelectorAll('text.tl-token')) {
            const box = textBox(plotLeft + px + Number(text.getAttribute('x')), 0, text.textContent!);
            if (box.x1 > widthPx) problems.push(`${spec}: “${text.textContent}” runs off the right edge`);
          }
        }
      }
      expect(stageMarks).toBeGreaterThan(20);
      expect(problems).toEqual([]);
    }, 120_000);
  }
});
