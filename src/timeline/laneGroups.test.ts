import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_GROUP_ID, groupClients } from './laneGroups';
import { buildTimelineModel, laneStateAt } from './model';
import { loadScripts, referenceScenario, run, type Run } from './testing/lessonRuns';
import { computeLayout } from './scales';
import { timelineSvg } from './timelineSvg';

describe('a herd folded into one lane', () => {
  let herd: Run;
  let paused: Run;
  beforeAll(async () => {
    await loadScripts();
    herd = run(referenceScenario('herd-fixed'));
    paused = run(referenceScenario('paused-barista'));
  });

  it('keeps Redis and the resource lanes and puts the fifty clients in one summary lane', () => {
    const full = buildTimelineModel(herd.events, herd.verdicts);
    expect(full.lanes.filter((l) => l.role === 'client')).toHaveLength(50);
    const grouped = groupClients(full);
    expect(grouped.lanes.map((l) => l.label)).toEqual([
      '50 clients',
      ...full.lanes.filter((l) => l.role !== 'client').map((l) => l.label),
    ]);
    expect(grouped.lanes.map((l) => l.index)).toEqual(grouped.lanes.map((_, i) => i));
    // Every lane a mark names exists, so nothing is drawn on a lane that is gone.
    const laneIds = new Set(grouped.lanes.map((l) => l.id));
    for (const m of grouped.messages) expect(laneIds.has(m.from) && laneIds.has(m.to)).toBe(true);
    for (const i of grouped.intervals) expect(laneIds.has(i.lane)).toBe(true);
  });

  it('counts the herd’s attempts and refusals over time, and they match the trace', () => {
    const grouped = groupClients(buildTimelineModel(herd.events, herd.verdicts));
    const { bins } = grouped.groups[0]!.density;
    const sum = (k: 'attempts' | 'refusals') => bins.reduce((n, b) => n + b[k], 0);
    expect(sum('attempts')).toBe(herd.events.filter((e) => e.kind === 'lock.request').length);
    expect(sum('refusals')).toBe(herd.events.filter((e) => e.kind === 'lock.busy').length);
    expect(sum('refusals')).toBeGreaterThan(100);
  });

  it('says on the summary lane who holds the lock at the playhead', () => {
    const grouped = groupClients(buildTimelineModel(herd.events, herd.verdicts));
    const acquired = herd.events.find((e) => e.kind === 'lock.acquired')!;
    const holder = grouped.groups[0]!.members.find((m) => m.id === acquired.actor)!.label;
    expect(laneStateAt(grouped, acquired.at, acquired.id).get(CLIENT_GROUP_ID)).toBe(`held by ${holder}`);
    expect(laneStateAt(grouped, 0, 0).get(CLIENT_GROUP_ID)).toBe('nobody holds it');
    // Redis names the holder by its name, though its lane is folded.
    const redis = grouped.lanes.find((l) => l.role === 'redis')!;
    const granted = herd.events.find((e) => e.kind === 'lease.granted')!;
    const owner = grouped.groups[0]!.members.find((m) => m.id === (granted.data as { owner: string }).owner)!.label;
    expect(laneStateAt(grouped, granted.at, granted.id).get(redis.id)).toContain(`→ ${owner}`);
  });

  it('draws a herd 50 lanes shorter, with its density strips', () => {
    const { document } = parseHTML('<!doctype html><html><body></body></html>');
    const full = buildTimelineModel(herd.events, herd.verdicts);
    const short = timelineSvg(document, groupClients(full), { width: 960, cursorMs: full.endMs });
    // Unfolded, the svg is as tall as the layout of all its lanes (drawModel sets its height from
    // it). Drawing that svg here as well took 30 s in a DOM written in JavaScript on a loaded runner.
    const tallPx = computeLayout(full.lanes.length, 960).height;
    expect(Number(short.getAttribute('height'))).toBeLessThan(tallPx / 10);
    expect(short.querySelectorAll('rect.tl-density-attempts').length).toBeGreaterThan(10);
    expect(short.querySelectorAll('rect.tl-density-refusals').length).toBeGreaterThan(10);
  });

  it('pulls one client out of the herd onto its own lane, under the summary, with its own marks', () => {
    const full = buildTimelineModel(herd.events, herd.verdicts);
    const grouped = groupClients(full, new Set(['C07']));
    expect(grouped.lanes.slice(0, 2).map((l) => l.label)).toEqual(['49 clients', 'Barista 7']);
    expect(grouped.points.some((p) => p.lane === 'C07' && p.kind === 'state')).toBe(true);
    expect(grouped.groups[0]!.members.some((m) => m.id === 'C07')).toBe(false);
  });

  it('leaves a run with a few clients as it is', () => {
    const model = buildTimelineModel(paused.events, paused.verdicts);
    expect(groupClients(model)).toBe(model);
  });
});
