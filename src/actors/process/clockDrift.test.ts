import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

describe('client clock drift', () => {
  const yaml = (driftPpm: number) => `
id: drift
title: a slow clock
clients:
  - { id: A, recipe: lease-with-token, ttl: 3s, work: 2s, driftPpm: ${driftPpm} }
  - { id: B, recipe: lease-with-token, ttl: 3s, work: 1s, startAt: 100ms }
resource: { id: espresso }
`;

  it('a clock running at half speed makes "2 s of work" take 4 s: the lease runs out first', () => {
    const r = runYaml(yaml(-500_000));
    expect(r.of('resource.request', 'A')[0]!.at).toBeGreaterThanOrEqual(4_000);
    expect(r.of('lease.ended', 'r1')[0]).toMatchObject({ data: { owner: 'A', reason: 'expired' } });
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it('an accurate clock finishes inside its lease', () => {
    const r = runYaml(yaml(0));
    expect(r.of('resource.request', 'A')[0]!.at).toBeLessThan(2_100);
    expect(r.verdict('single-writer').holds).toBe(true);
  });
});
