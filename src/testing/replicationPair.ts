import { Network } from '../net/network';
import type { Reply } from '../redis/reply';
import type { ScriptEngine } from '../redis/scriptEngine';
import { Sim } from '../sim/sim';
import { RedisServerNode } from '../actors/server/redisNode';
import { ReplicationTopology } from '../actors/server/replicationTopology';

/**
 * A simulated primary and replica on a 1 ms loopback network, driven one command at a time
 * like a redis-cli session: the harness the replication differential tests compare with a
 * real pair. Crons always run (there are no lock clients to wait for).
 */
export class ReplicationPair {
  readonly sim = new Sim(1);
  readonly primary: RedisServerNode;
  readonly replica: RedisServerNode;

  constructor(scripts?: ScriptEngine) {
    const network = new Network(this.sim, {
      defaults: { latency: { dist: 'fixed', ms: 1 }, loss: 0, duplicate: 0, reorder: 0, reorderDelayMs: 0 },
      links: [],
    });
    this.primary = new RedisServerNode(this.sim, 'primary', [], () => '', scripts);
    this.replica = new RedisServerNode(this.sim, 'replica', [], () => '', scripts, {
      role: 'replica',
      replicaOf: 'primary',
    });
    new ReplicationTopology(
      this.sim,
      network,
      [this.primary, this.replica],
      { nodes: {}, sentinels: null, wait: null },
      () => true,
    );
    this.advance(100);
  }

  /** Runs one command on `on` and advances virtual time until it answers (WAIT may block). */
  run(on: 'primary' | 'replica', argv: string[]): Reply {
    let reply: Reply | null = null;
    this[on].execute(argv, 'cli', -1, (r) => (reply = r));
    while (reply === null && this.sim.kernel.step());
    if (reply === null) throw new Error(`no reply to ${argv.join(' ')}`);
    // Let the write reach the replica, as it would have on loopback before the next command.
    this.advance(5);
    return reply;
  }

  /** Lets `ms` of virtual time pass. */
  advance(ms: number): void {
    const until = this.sim.now + ms;
    this.sim.kernel.schedule(ms, null, () => {});
    while ((this.sim.kernel.nextAt() ?? Infinity) <= until && this.sim.kernel.step());
  }
}
