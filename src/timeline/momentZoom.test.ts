import { beforeAll, describe, expect, it } from 'vitest';
import { buildTimelineModel } from './model';
import { keyMoment, momentZoomK } from './momentZoom';
import { baseTimeScale, computeLayout } from './scales';
import { lessonScenarios, loadScripts, run } from './testing/lessonRuns';

/** The model of lesson `spec`'s run and its un-zoomed scale at `widthPx`. */
function drawn(spec: string, widthPx: number) {
  const found = lessonScenarios().find((s) => s.spec === spec);
  if (!found) throw new Error(`no scenario ${spec}`);
  const { events, verdicts } = run(found.scenario);
  const model = buildTimelineModel(events, verdicts);
  const layout = computeLayout(model.lanes.length, widthPx);
  return { model, width: layout.plotWidthPx, x0: baseTimeScale(model, layout) };
}

describe('the first view zooms in on a key moment only where its labels do not fit', () => {
  beforeAll(loadScripts);

  it('on a phone, lesson 30’s double write (two writes half a second apart): the least zoom tried at which the label pass labels both', () => {
    const { model, width, x0 } = drawn('30-basic-lease.md#c3-no-nx', 390);
    expect(keyMoment(model)?.writeIds).toEqual(model.writes.map((w) => w.id));
    const tried: number[] = [];
    const k = momentZoomK(model, width, x0, (tryK) => (tried.push(tryK), tryK >= 2.5));
    expect(tried[0]).toBe(1);
    // The first zoom tried puts the two writes 80 px apart; each next one is 1.25 times more.
    const [a, b] = model.writes.map((w) => x0(w.at) * tried[1]!);
    expect(b! - a!).toBeCloseTo(80, 5);
    expect(k).toBeGreaterThanOrEqual(2.5);
    expect(k / tried.at(-2)!).toBeCloseTo(1.25, 5);
  });

  it('keeps the whole run when its labels fit shown whole, on a laptop, or when no zoom up to 8× helps', () => {
    const phone = drawn('30-basic-lease.md#c3-no-nx', 390);
    expect(momentZoomK(phone.model, phone.width, phone.x0, () => true)).toBe(1);
    const tried: number[] = [];
    expect(momentZoomK(phone.model, phone.width, phone.x0, (k) => (tried.push(k), false))).toBe(1);
    expect(Math.max(...tried)).toBe(8);
    const laptop = drawn('30-basic-lease.md#c3-no-nx', 1440);
    expect(momentZoomK(laptop.model, laptop.width, laptop.x0, () => false)).toBe(1);
  });

  it('has no key moment when nothing broke and nothing was refused (lesson 40 as submitted)', () => {
    const { model } = drawn('40-clinic-plain-del.md#clinic-plain-del', 390);
    expect(model.writes.length).toBeGreaterThan(1);
    expect(keyMoment(model)).toBeNull();
  });
});
