import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

/** A wedged worker whose watchdog renews a 2 s lease; B waits behind it. */
const wedged = (extra: string, script = '') => `
id: wedge
title: wedge
horizon: 30s
clients:
  - { id: A, recipe: watchdog, ttl: 2s, work: forever${extra} }
  - { id: B, recipe: watchdog, ttl: 2s, work: 1s, startAt: 1s${extra} }
resource: { id: espresso }
${script}`;

describe('maxHold: a cap on the watchdog', () => {
  it('stops renewing once the lock has been held that long, so the wedged lease expires and the next client gets in', () => {
    const r = runYaml(wedged(', maxHold: 4s'));
    const lost = r.of('lock.lost', 'A')[0]!;
    expect(lost.data.reason).toBe('held for 4 s, its cap: the watchdog stops renewing');
    expect(lost.at).toBeGreaterThanOrEqual(4000);
    expect(lost.at).toBeLessThan(4000 + 700);
    expect(r.of('lock.acquired', 'B')[0]!.at).toBeLessThan(lost.at + 2100);
    expect(r.verdict('progress').holds).toBe(true);
  });

  it('without it the watchdog renews for ever and B never gets the lock', () => {
    const r = runYaml(wedged(''));
    expect(r.of('lock.acquired', 'B')).toHaveLength(0);
  });

  it('counts on a monotonic clock: a wall-clock jump back does not stretch the cap', () => {
    const r = runYaml(wedged(', maxHold: 4s', 'script:\n  - { at: 1s, do: clock-jump, target: A, by: -20s }\n'));
    expect(r.of('lock.lost', 'A')[0]!.at).toBeLessThan(4700);
  });
});
