import { describe, expect, it } from 'vitest';
import { lockClientMachine } from '../../actors/client/lockClientMachine';
import { sentinelMachine } from '../../actors/sentinel/sentinelMachine';
import { machineOutline } from './machineOutline';
import { layoutStatechart, type StateBox } from './statechartLayout';

const overlap = (a: StateBox, b: StateBox) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: StateBox, b: StateBox) =>
  a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;

describe('a statechart drawn as a diagram', () => {
  it('names Sentinel’s states and transitions as the failover lessons do, not by event id', () => {
    const layout = layoutStatechart(machineOutline(sentinelMachine));
    expect(layout.states.map((s) => s.name)).toEqual([
      'Monitoring',
      'SDOWN (subjectively down)',
      'ODOWN (objectively down)',
      'Election',
      'Promotion (failing over)',
    ]);
    const arrows = layout.transitions.map((t) => `${t.from} → ${t.to}: ${t.label}`);
    expect(arrows).toContain('monitoring → subjectively-down: no reply for down-after');
    expect(arrows).toContain('subjectively-down → objectively-down: a quorum agrees');
    expect(arrows).toContain('objectively-down → electing: random delay over');
    expect(arrows).toContain('electing → failing-over: majority voted for it');
    expect(arrows).toContain('failing-over → monitoring: replica is primary / no replica fit / failover timed out');
    // Ways out that most states share are said once, not drawn from each.
    expect(layout.shared.map((t) => `${t.from.join(', ')} → ${t.to}: ${t.label}`)).toEqual([
      'monitoring, subjectively-down, objectively-down, electing → failing-over: SENTINEL FAILOVER',
      'subjectively-down, objectively-down, electing → monitoring: primary answers',
      'subjectively-down, objectively-down, electing → monitoring: another leader switched',
    ]);
    // No internal id is left in the words a learner reads.
    for (const t of layout.transitions) expect(t.label).not.toMatch(/[A-Z]{2,}_|OPINIONS|VOTES|quorumReached|xstate/);
    expect(layout.states.find((s) => s.key === 'monitoring')!.initial).toBe(true);
  });

  it('lays boxes apart, frames nested states around their children, and gives every arrow a path', () => {
    for (const machine of [sentinelMachine, lockClientMachine]) {
      const layout = layoutStatechart(machineOutline(machine));
      const leaves = layout.states.filter((s) => !s.frame);
      leaves.forEach((a, i) =>
        leaves.slice(i + 1).forEach((b) => expect(overlap(a, b), `${a.key} and ${b.key}`).toBe(false)),
      );
      for (const t of layout.transitions) expect(t.points.length).toBeGreaterThanOrEqual(2);
      for (const s of layout.states) {
        expect(s.x + s.width).toBeLessThanOrEqual(layout.width);
        expect(s.y + s.height).toBeLessThanOrEqual(layout.height);
      }
    }
    const client = layoutStatechart(machineOutline(lockClientMachine));
    const box = (key: string) => client.states.find((s) => s.key === key)!;
    expect(box('holding').frame).toBe(true);
    expect(inside(box('working'), box('job'))).toBe(true);
    expect(inside(box('asking'), box('renewing'))).toBe(true);
  });
});
