import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

describe('request timeouts: the ambiguous outcome', () => {
  it('records both sides: the client gave up, yet Redis applied the SET and granted it the lease', () => {
    const r = runYaml(`
id: ambiguous
title: timeout
network: { links: [{ from: A, to: r1, latency: 2s }] }
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, timeout: 1s, retry: { policy: fixed, delay: 100ms, attempts: 3 } }
resource: { id: espresso }
`);
    const timeout = r.of('request.timeout', 'A')[0]!;
    const applied = r.of('redis.command', 'r1').find((e) => e.data.msg === timeout.data.msg)!;
    expect(timeout.at).toBe(1000);
    expect(applied.at).toBe(2000);
    expect(applied.data.reply).toBe('OK');
    expect(r.of('lease.granted', 'r1')[0]!.data.owner).toBe('A');
    expect(r.of('request.late', 'A')[0]!.data.msg).toBe(timeout.data.msg);
    // A never learns it holds the lock: it gives up while Redis keeps its lease.
    expect(r.of('lock.acquired', 'A')).toEqual([]);
    expect(r.of('lock.failed', 'A')).toHaveLength(1);
  });
});

describe('duplicated requests', () => {
  it('runs a duplicated SET NX twice: the copy finds the key taken', () => {
    const r = runYaml(`
id: dup
title: duplication
network: { links: [{ from: A, to: r1, duplicate: 1 }] }
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s }
resource: { id: espresso }
`);
    const first = r.of('redis.command', 'r1').filter((e) => e.data.msg === 1);
    expect(first.map((e) => e.data.reply)).toEqual(['OK', '(nil)']);
    expect(r.of('lock.acquired', 'A')).toHaveLength(1);
  });
});

describe('a crashed Redis node', () => {
  it('loses requests sent to it, recorded as drops; with a timeout the client retries elsewhere in time', () => {
    const r = runYaml(`
id: down
title: crashed node
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, timeout: 200ms, startAt: 1s }
resource: { id: espresso }
script:
  - { at: 500ms, do: crash, target: r1 }
  - { at: 2s, do: restart, target: r1 }
`);
    expect(r.of('net.drop').some((e) => e.data.reason === 'crashed')).toBe(true);
    expect(r.of('lock.acquired', 'A')[0]!.at).toBeGreaterThan(2000);
  });
});
