import { beforeAll, describe, expect, it } from 'vitest';
import { markKindsOf } from '../../timeline/markKinds';
import { buildTimelineModel } from '../../timeline/model';
import { lessonScenarios, loadScripts, run } from '../../timeline/testing/lessonRuns';
import { LEGEND_ENTRIES, type SwatchShape } from './legendEntries';

/**
 * A swatch's outline without its colours: what a learner who cannot tell orange from yellow
 * still sees (the timeline never lets colour alone carry a meaning).
 */
function outline(swatch: readonly SwatchShape[]): string {
  // Sizes aside too: a bigger circle is still a circle. A line's length and slope are its shape.
  const keep = ['d', 'rx', 'x1', 'y1', 'x2', 'y2', 'stroke-dasharray', 'fill-opacity'];
  return swatch
    .map(
      (s) =>
        `${s.tag}(${keep
          .filter((k) => k in s.attrs)
          .map((k) => `${k}=${s.attrs[k]}`)
          .join(
            ',',
          )}${String(s.attrs.fill ?? '').startsWith('hatch:') ? `,${String(s.attrs.fill)}` : ''})${s.text ?? ''}`,
    )
    .join(' ');
}

describe('the timeline legend', () => {
  beforeAll(loadScripts);

  it('explains every mark a failover lesson’s run draws', () => {
    const explained = new Set(LEGEND_ENTRIES.flatMap((e) => e.kinds));
    const missing: string[] = [];
    let failoverRuns = 0;
    for (const { spec, scenario } of lessonScenarios()) {
      if (!scenario.redis?.sentinels) continue;
      failoverRuns++;
      const { events, verdicts } = run(scenario);
      for (const kind of markKindsOf(buildTimelineModel(events, verdicts)))
        if (!explained.has(kind)) missing.push(`${spec}: ${kind}`);
    }
    expect(failoverRuns).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  }, 120_000);

  it('names a message to a crashed process apart from one the network lost', () => {
    const entry = (kind: string) => LEGEND_ENTRIES.find((e) => e.kinds.includes(kind as never))!;
    expect(entry('messageToCrashed').text('Redis')).toMatch(/crashed process/);
    expect(entry('messageLost').text('Redis')).toMatch(/lost in the network/);
    expect(entry('sentinel').text('Redis')).toMatch(/SDOWN, ODOWN, election, promotion/);
  });

  it('has no two entries that look alike, colours aside', () => {
    const seen = new Map<string, string>();
    const alike: string[] = [];
    for (const entry of LEGEND_ENTRIES) {
      const key = outline(entry.swatch);
      const other = seen.get(key);
      if (other) alike.push(`“${entry.text('Redis')}” looks like “${other}”`);
      seen.set(key, entry.text('Redis'));
    }
    expect(alike).toEqual([]);
  });
});

describe('the legend at the playhead', () => {
  beforeAll(loadScripts);

  it('lists only what is drawn so far: no rejected write before the rejection', () => {
    const fenced = lessonScenarios().find((s) => s.spec.endsWith('#failover-fencing'))!;
    const { events, verdicts } = run(fenced.scenario);
    const model = buildTimelineModel(events, verdicts);
    const rejection = model.writes.find((w) => !w.accepted)!;
    expect(markKindsOf(model, rejection.id - 1).has('writeRejected')).toBe(false);
    expect(markKindsOf(model, rejection.id).has('writeRejected')).toBe(true);
    const firstStage = model.points.find((p) => p.kind === 'sentinel')!;
    expect(markKindsOf(model, firstStage.id - 1).has('sentinel')).toBe(false);
    expect(markKindsOf(model).has('sentinel')).toBe(true);
  }, 60_000);
});
