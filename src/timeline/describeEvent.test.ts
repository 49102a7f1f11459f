import { describe, expect, it } from 'vitest';
import { pausedBaristaFenced } from './fixtures/pausedBarista';
import { describeEvent, describeEventLine } from './describeEvent';

const labels = new Map([
  ['A', 'Barista A'],
  ['B', 'Barista B'],
  ['r1', 'Redis'],
  ['espresso', 'Espresso machine'],
]);
const labelOf = (id: string) => labels.get(id) ?? id;
const { events, ids } = pausedBaristaFenced;

describe('describeEvent', () => {
  it("says plainly that the machine rejected A's stale write, with the time", () => {
    expect(describeEventLine(events[ids.aWrite]!, labelOf)).toBe("17.002 s – Espresso machine rejected Barista A's write: stale token 1 < 2.");
  });

  it('names the accepted write and its token', () => {
    expect(describeEvent(events[ids.bWrite]!, labelOf)).toBe("Espresso machine accepted Barista B's write (token 2).");
  });

  it('explains the expiry and the pause in actor names, not ids', () => {
    expect(describeEvent(events[ids.leaseAExpired]!, labelOf)).toBe("Redis: Barista A's lease on “lock” expired.");
    expect(describeEvent(events[ids.aPause]!, labelOf)).toBe('Barista A paused for 15 s.');
  });

  it('says when a release found the key already gone', () => {
    const release = events.find((e) => e.kind === 'lock.released' && e.actor === 'A')!;
    expect(describeEvent(release, labelOf)).toBe('Barista A tried to release “lock”, but Redis no longer had its key.');
  });
});
