import { describe, expect, it } from 'vitest';
import { SentinelReader } from './sentinelEvents';

/** What a real sentinel (s2, the leader) announced in a measured failover of lesson 9's primary on port 7001. */
const ANNOUNCED: [string, string][] = [
  ['+sdown', 'master mymaster 127.0.0.1 7001'],
  ['+odown', 'master mymaster 127.0.0.1 7001 #quorum 2/2'],
  ['+new-epoch', '1'],
  ['+try-failover', 'master mymaster 127.0.0.1 7001'],
  ['+vote-for-leader', 'runid-of-s2 1'],
  ['+elected-leader', 'master mymaster 127.0.0.1 7001'],
  ['+failover-state-select-slave', 'master mymaster 127.0.0.1 7001'],
  ['+selected-slave', 'slave 127.0.0.1:7002 127.0.0.1 7002 @ mymaster 127.0.0.1 7001'],
  ['+failover-state-wait-promotion', 'slave 127.0.0.1:7002 127.0.0.1 7002 @ mymaster 127.0.0.1 7001'],
  ['+promoted-slave', 'slave 127.0.0.1:7002 127.0.0.1 7002 @ mymaster 127.0.0.1 7001'],
  ['+switch-master', 'mymaster 127.0.0.1 7001 127.0.0.1 7002'],
  ['+sdown', 'slave 127.0.0.1:7001 127.0.0.1 7001 @ mymaster 127.0.0.1 7002'],
];

describe('SentinelReader', () => {
  it("reads a real sentinel's failover as the simulated Sentinel's events, with the scenario's names", () => {
    const reader = new SentinelReader('s2', {
      group: 'mymaster',
      nodeAt: (port) => ({ 7001: 'primary', 7002: 'replica' })[port],
      sentinelWithRunId: (runId) => (runId === 'runid-of-s2' ? 's2' : undefined),
      needed: 2,
    });
    const events = ANNOUNCED.flatMap(([channel, message]) => reader.read(channel, message)).filter(
      (e) => e.kind !== 'actor.state',
    );
    expect(events).toEqual([
      { kind: 'sentinel.sdown', actor: 's2', data: { node: 'primary', down: true } },
      { kind: 'sentinel.odown', actor: 's2', data: { primary: 'primary', votes: 2, quorum: 2, down: true } },
      { kind: 'sentinel.vote', actor: 's2', data: { epoch: 1, leader: 's2' } },
      { kind: 'sentinel.elected', actor: 's2', data: { epoch: 1, votes: 2, needed: 2 } },
      {
        kind: 'failover.start',
        actor: 's2',
        data: { group: 'mymaster', primary: 'primary', epoch: 1, manual: false },
      },
      // The replica is a primary from the moment the leader sent it REPLICAOF NO ONE: the
      // checkers count its leases as grants from then on.
      {
        kind: 'redis.role',
        actor: 'replica',
        data: { role: 'primary', of: null, reason: 'promoted by s2 (epoch 1)' },
      },
      { kind: 'failover.promote', actor: 's2', data: { group: 'mymaster', from: 'primary', to: 'replica', epoch: 1 } },
      { kind: 'sentinel.switch', actor: 's2', data: { group: 'mymaster', from: 'primary', to: 'replica', epoch: 1 } },
      // The dead old primary, now listed as the new primary's replica, is still down.
      { kind: 'sentinel.sdown', actor: 's2', data: { node: 'primary', down: true } },
    ]);
  });
});
