import { beforeAll, describe, expect, it } from 'vitest';
import { buildTimelineModel } from './model';
import { KEY_WRITE_ROOM_PX, momentZoomK } from './momentZoom';
import { baseTimeScale, computeLayout } from './scales';
import { lessonScenarios, loadScripts, run } from './testing/lessonRuns';

/** The model of lesson `spec`'s run and its un-zoomed scale at `widthPx`. */
function drawn(spec: string, widthPx: number) {
  const found = lessonScenarios().find((s) => s.spec === spec);
  if (!found) throw new Error(`no scenario ${spec}`);
  const { events, verdicts } = run(found.scenario);
  const model = buildTimelineModel(events, verdicts);
  const layout = computeLayout(model.lanes.length, widthPx);
  return { model, layout, x0: baseTimeScale(model, layout) };
}

describe('the first view zooms in on a crowded key moment only on a narrow plot', () => {
  beforeAll(loadScripts);

  it('on a phone, zooms lesson 30’s double write (two writes half a second apart) until they are KEY_WRITE_ROOM_PX apart', () => {
    const { model, layout, x0 } = drawn('30-basic-lease.md#c3-no-nx', 390);
    const k = momentZoomK(model, layout.plotWidthPx, x0);
    expect(k).toBeGreaterThan(1);
    const [a, b] = model.writes.map((w) => x0(w.at) * k);
    expect(Math.abs(b! - a!)).toBeCloseTo(KEY_WRITE_ROOM_PX, 5);
  });

  it('on a laptop, shows the same run whole', () => {
    const { model, layout, x0 } = drawn('30-basic-lease.md#c3-no-nx', 1440);
    expect(momentZoomK(model, layout.plotWidthPx, x0)).toBe(1);
  });

  it('shows a run whole when nothing broke and nothing was refused (lesson 40 as submitted)', () => {
    const { model, layout, x0 } = drawn('40-clinic-plain-del.md#clinic-plain-del', 390);
    expect(model.writes.length).toBeGreaterThan(1);
    expect(momentZoomK(model, layout.plotWidthPx, x0)).toBe(1);
  });
});
