import { describe, expect, it } from 'vitest';
import { runYaml } from '../../testing/testKit';

/**
 * The Redis lane's lease lasts as long as Redis keeps the key: a forward clock jump past the
 * deadline ends it at the next active-expiry cycle (every 100 ms), not at the jump and not
 * when the next client happens to touch the key (measured against redis-server under
 * libfaketime in src/redis/differential/clockJump.test.ts).
 */
function leap(opts: { jumpAt: string; by: string; bStartsAt: string; replica?: boolean }) {
  return runYaml(`
id: leap
title: leap
seed: 3
redis:
  nodes:
    - { id: r1 }
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, work: 6s }
  - { id: B, recipe: lease-with-token, ttl: 10s, work: 1s, startAt: ${opts.bStartsAt} }
resource: { id: espresso }
script:
  - { at: ${opts.jumpAt}, do: clock-jump, target: r1, by: ${opts.by} }
`);
}

describe('a lease on a primary after a clock jump', () => {
  it('a jump that lands just short of the deadline: the lease ends at the first cycle after the deadline, before B asks', () => {
    const r = leap({ jumpAt: '2s', by: '8s', bStartsAt: '3s' });
    const grantedA = r.of('lease.granted', 'r1').find((e) => e.data.owner === 'A')!;
    const ended = r.of('lease.ended', 'r1').find((e) => e.data.owner === 'A')!;
    expect(ended.data.reason).toBe('expired');
    // A's key expires 10 s after its SET on r1's clock, which the jump put 8 s ahead at 2 s.
    const deadline = grantedA.at + 10_000 - 8_000;
    expect(ended.at).toBeGreaterThan(deadline);
    expect(ended.at).toBeLessThanOrEqual(deadline + 100);
  });

  it('a jump well past the deadline: the lease ends within a cycle of the jump, not at the jump', () => {
    const r = leap({ jumpAt: '2050ms', by: '20s', bStartsAt: '5s' });
    const ended = r.of('lease.ended', 'r1').find((e) => e.data.owner === 'A')!;
    expect(ended.data.reason).toBe('expired');
    expect(ended.at).toBeGreaterThan(2050);
    expect(ended.at).toBeLessThanOrEqual(2150);
  });

  it('a command that finds the key expired before a cycle does ends the lease as expired, not overwritten', () => {
    // B asks as the jump lands, half a cycle before the next one runs (they run at 2001, 2101 ms).
    const r = leap({ jumpAt: '2050ms', by: '20s', bStartsAt: '2050ms' });
    const ended = r.of('lease.ended', 'r1').find((e) => e.data.owner === 'A')!;
    expect(ended.data.reason).toBe('expired');
    const grantB = r.of('lease.granted', 'r1').find((e) => e.data.owner === 'B')!;
    expect(grantB.at).toBe(ended.at);
    expect(grantB.at).toBeLessThan(2101);
  });
});
