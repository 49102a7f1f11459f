import type { Network } from '../../net/network';
import type { Sim } from '../../sim/sim';
import type { RedisServerNode } from '../server/redisNode';
import { Sentinel } from './sentinel';
import type { SentinelGroupView, SentinelSettings } from './sentinelPeers';

/** What the world tells a group: whether to keep its background loops running. */
export interface GroupControl {
  keepRunning(): boolean;
  sleeping(restart: () => void): void;
}

/**
 * A primary, its replicas, and the sentinels that watch them. The group also holds the
 * configuration the sentinels last published (primary and epoch): the address Sentinel-aware
 * clients resolve, as if they had asked `SENTINEL get-master-addr-by-name` and received the
 * +switch-master announcement at once.
 */
export class SentinelGroup implements SentinelGroupView {
  readonly sentinels: Sentinel[];
  readonly sentinelCount: number;
  primaryId: string;
  configEpoch = 0;

  constructor(
    sim: Sim,
    readonly name: string,
    readonly settings: SentinelSettings,
    readonly nodes: readonly RedisServerNode[],
    primaryId: string,
    readonly network: Network,
    sentinelIds: readonly string[],
    private readonly control: GroupControl,
  ) {
    this.primaryId = primaryId;
    this.sentinelCount = sentinelIds.length;
    this.sentinels = sentinelIds.map((id) => new Sentinel(sim, id, this, sim.random.fork(`sentinel:${id}`)));
  }

  /** Starts every sentinel's loop. */
  start(): void {
    for (const s of this.sentinels) s.start();
  }

  /** A sentinel switched to a new primary: the newest epoch wins. */
  published(primaryId: string, epoch: number): void {
    if (epoch <= this.configEpoch) return;
    this.configEpoch = epoch;
    this.primaryId = primaryId;
  }

  /** The primary clients are sent to now. */
  currentPrimary(): RedisServerNode {
    return this.nodes.find((n) => n.id === this.primaryId)!;
  }

  /** SENTINEL FAILOVER: the first sentinel able to (up, not paused) promotes a replica. */
  failover(): boolean {
    return this.sentinels.some((s) => s.manualFailover());
  }

  get busy(): boolean {
    return this.sentinels.some((s) => !s.process.crashed && s.busy);
  }

  keepRunning(): boolean {
    return this.control.keepRunning();
  }

  sleeping(restart: () => void): void {
    this.control.sleeping(restart);
  }
}
