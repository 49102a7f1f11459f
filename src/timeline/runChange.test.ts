import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import type { Action } from '../actors/action';
import { simTime } from '../sim/time';
import { buildTimelineModel } from './model';
import { renderTimeline } from './renderTimeline';
import { loadScripts, run } from './testing/lessonRuns';

/**
 * Lesson 11's exercise, drawn as a learner makes it: Shard 2 crashed at 1.2 s (B's knocks are
 * lost on the dead node), then restarted 50 ms later (the same knocks are refused and answered).
 * The second run reuses the first run's arrows by key, and each must now look like its message.
 */
describe('the timeline when a learner changes the run', () => {
  beforeAll(loadScripts);

  it('draws a delivered message plain, without the cross and dashes of the lost one whose arrow it took', () => {
    const loaded = loadScenario('lessons/11-cluster-many-locks.md#one-lock-one-shard');
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const crash: Action = { at: simTime(1200), do: 'crash', target: 'r2' };
    const restart: Action = { at: simTime(1250), do: 'restart', target: 'r2' };
    const { document, window } = parseHTML('<!doctype html><html><body></body></html>');
    Object.assign(window, { requestAnimationFrame: () => 1, cancelAnimationFrame: () => {} });
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg') as unknown as SVGSVGElement;
    const draw = (actions: Action[]) => {
      const r = run(loaded.scenario, { actions });
      const model = buildTimelineModel(r.events, r.verdicts);
      renderTimeline(svg, model, { width: 1200, cursorMs: model.endMs, reducedMotion: true, followCursor: false });
      return model;
    };
    const lost = draw([crash]);
    expect(lost.messages.filter((m) => m.fate === 'dropped').length).toBeGreaterThan(0);
    const restarted = draw([crash, restart]);
    expect(restarted.messages.every((m) => m.fate !== 'dropped')).toBe(true);
    const arrows = [...(svg as unknown as Element).querySelectorAll('g.tl-msg')];
    expect(arrows).toHaveLength(restarted.messages.length);
    expect(arrows.filter((a) => a.querySelector('path.tl-cross'))).toEqual([]);
    // Only the requests to the resource are dashed: every message to and from Redis is a plain line.
    const dashed = arrows.filter((a) => a.querySelector('line')!.hasAttribute('stroke-dasharray'));
    expect(dashed).toHaveLength(restarted.messages.filter((m) => m.channel === 'request').length);
  });
});
