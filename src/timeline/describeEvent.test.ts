import { beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent, TraceKind } from '../sim/traceEvents';
import { describeEvent, describeEventLine } from './describeEvent';
import { loadScripts, referenceScenario, run } from './testing/lessonRuns';

// The simulator's paused barista with fencing on: A's late write carries the older token.
let events: TraceEvent[];
let labelOf: (id: string) => string;
beforeAll(async () => {
  await loadScripts();
  events = run(referenceScenario('paused-barista'), { fencing: true }).events;
  const start = events[0]!;
  const names = new Map(start.kind === 'run.start' ? start.data.actors.map((a) => [a.id, a.label]) : []);
  labelOf = (id) => names.get(id) ?? id;
});
const find = (kind: TraceKind, actor: string, nth = 0) =>
  events.filter((e) => e.kind === kind && e.actor === actor)[nth]!;

describe('describeEvent', () => {
  it("says plainly that the machine rejected A's stale write, with the time", () => {
    const aWrite = find('resource.write', 'espresso', 1);
    expect(describeEventLine(aWrite, labelOf)).toBe(
      `${(aWrite.at / 1000).toFixed(3)} s – Espresso machine rejected Barista A's write: stale token 1 < 2.`,
    );
  });

  it('names the accepted write and its token', () => {
    expect(describeEvent(find('resource.write', 'espresso'), labelOf)).toBe(
      "Espresso machine accepted Barista B's write (token 2).",
    );
  });

  it('explains the expiry and the pause in actor names, not ids', () => {
    expect(describeEvent(find('lease.ended', 'r1'), labelOf)).toBe("Redis r1: Barista A's lease on “lock” expired.");
    expect(describeEvent(find('process.pause', 'A'), labelOf)).toBe('Barista A paused for 15 s.');
  });

  it('says when a release found the key already gone', () => {
    expect(describeEvent(find('lock.released', 'A'), labelOf)).toBe(
      'Barista A tried to release “lock”, but Redis no longer had its key.',
    );
  });

  it("words a refusal after WAIT as the client's own judgement, not as Redis's answer", () => {
    const refusal: TraceEvent<'lock.busy'> = {
      id: 0,
      at: events[0]!.at,
      kind: 'lock.busy',
      actor: 'A',
      data: { key: 'lock', refusal: 'WAIT confirmed 0 of 1 replicas' },
    };
    expect(describeEvent(refusal, labelOf)).toBe(
      "Barista A's client library refused “lock” although Redis granted it: WAIT confirmed 0 of 1 replicas.",
    );
    expect(describeEvent({ ...refusal, data: { key: 'lock' } }, labelOf)).toBe('Barista A found “lock” taken.');
  });
});
