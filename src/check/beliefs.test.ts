import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../testing/testKit';
import { beliefsOf, heldAfter } from './beliefs';

// Two baristas take turns on one Redis. Replies to B are slow (5 ms) and A retries every
// millisecond, so A takes the lock the moment B's release reaches Redis, before B hears that
// its release went through: the hand-over of issue 18.
const TURNS = `
id: turns
title: Two baristas take turns
seed: 1
network:
  latency: 1ms
  links:
    - { from: r1, to: B, latency: 5ms }
clients:
  - { id: A, label: Barista A, recipe: lease-with-token, ttl: 5s, work: 100ms, startAt: 10ms, retry: { policy: fixed, delay: 1ms, attempts: 500 } }
  - { id: B, label: Barista B, recipe: lease-with-token, ttl: 5s, work: 100ms }
resource: { id: espresso, label: Espresso machine }
`;

describe('beliefs: a client that has sent its release no longer believes it holds the lock', () => {
  beforeAll(async () => {
    await loadTestScripts();
  });

  it('a prompt hand-over (B releases, A acquires before B hears the reply) is not two holders', () => {
    const r = runYaml(TURNS);
    const released = r.of('lock.released', 'B')[0]!;
    const acquired = r.of('lock.acquired', 'A')[0]!;
    // The situation itself: A believes it holds the lock before B hears its release's answer.
    expect(acquired.at).toBeLessThan(released.at);
    expect(r.verdict('single-holder').holds).toBe(true);

    const b = beliefsOf(r.events).find((x) => x.client === 'B')!;
    const release = r.events[b.endId!]!;
    expect(release).toMatchObject({ kind: 'net.send', actor: 'B', data: { to: 'r1' } });
    expect(b.endMs).toBeLessThan(acquired.at);
    expect(b.endReason).toBe('released');
    // Between the release and its answer the inspector shows B holding nothing.
    expect(heldAfter(beliefsOf(r.events), release.id, 'B')).toEqual([]);
    expect(heldAfter(beliefsOf(r.events), release.id - 1, 'B')).toHaveLength(1);
  });

  it('a client paused past its lease still believes it holds the lock: two holders', () => {
    const r = runYaml(`
id: paused
title: Paused
seed: 7
clients:
  - { id: A, label: Barista A, recipe: lease-with-token, ttl: 2s, work: 1s }
  - { id: B, label: Barista B, recipe: lease-with-token, ttl: 2s, startAt: 1s, retry: { policy: fixed, delay: 100ms, attempts: 100 } }
resource: { id: espresso }
script:
  - { at: 500ms, do: pause, target: A, for: 5s }
`);
    const v = r.verdict('single-holder');
    expect(v.holds).toBe(false);
    expect(v.eventIds.map((id) => r.events[id]!.actor)).toEqual(['A', 'B']);
  });
});
