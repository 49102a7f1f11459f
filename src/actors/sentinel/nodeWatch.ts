import type { Sim } from '../../sim/sim';
import { localTime, type LocalClockMs } from '../../sim/time';
import type { Process } from '../process/process';
import type { NodeInfo, RedisServerNode } from '../server/redisNode';
import type { SentinelGroupView } from './sentinelPeers';
import { PING_PERIOD_MS, RECONFIGURE_AFTER_MS } from './sentinelTiming';

/** What the sentinel does when its watch sees a node go down or come back, and after each look. */
export interface NodeWatchListener {
  nodeDown(nodeId: string): void;
  nodeUp(nodeId: string): void;
  /** Every look at the nodes' silence ends here (the sentinel counts opinions if its primary is down). */
  looked(): void;
}

/**
 * What one sentinel has seen of its group's Redis nodes: when each last answered a PING, the
 * role it reported, which ones are subjectively down (SDOWN: silent for more than
 * down-after-milliseconds on this sentinel's own clock), and since when each stray (a node
 * whose role contradicts the sentinel's configuration) has been one. All of it lives in the process's
 * memory, so a restart forgets it (`forget`), while the configuration it is judged against
 * (the primary, the epochs) belongs to the sentinel.
 */
export class NodeWatch {
  private readonly lastReplyMs = new Map<string, LocalClockMs>();
  private readonly info = new Map<string, NodeInfo>();
  private readonly sdown = new Set<string>();
  private readonly straySince = new Map<string, LocalClockMs>();
  /** Where silence counts from for a node that never answered: the watch's start. */
  private startedMs: LocalClockMs = localTime(0);

  constructor(
    private readonly sim: Sim,
    private readonly process: Process,
    private readonly group: SentinelGroupView,
    private readonly listener: NodeWatchListener,
  ) {}

  private get id(): string {
    return this.process.id;
  }

  /** Starts watching (again): a watch that has heard nothing counts silence from now. */
  begin(): void {
    if (this.lastReplyMs.size === 0) this.startedMs = this.process.localNow();
  }

  /** The process restarted: everything seen is forgotten, and silence counts from now. */
  forget(): void {
    this.startedMs = this.process.localNow();
    this.lastReplyMs.clear();
    this.sdown.clear();
    this.straySince.clear();
  }

  /** How long `nodeId` has been silent, on this process's clock. */
  silentMs(nodeId: string): number {
    return this.process.localNow() - (this.lastReplyMs.get(nodeId) ?? this.startedMs);
  }

  isDown(nodeId: string): boolean {
    return this.sdown.has(nodeId);
  }

  /**
   * The sentinel took `nodeId` as its primary: that node is not held down (Redis resets the
   * instance), and every stray is judged afresh against the new configuration.
   */
  newPrimary(nodeId: string): void {
    this.sdown.delete(nodeId);
    this.straySince.clear();
  }

  /** Nodes held down, for choosing a replica to promote. */
  get down(): ReadonlySet<string> {
    return this.sdown;
  }

  /** The INFO each node last answered with. */
  get seen(): ReadonlyMap<string, NodeInfo> {
    return this.info;
  }

  /** Nodes that have disagreed with `primaryId` being the primary for a while: time to tell them whom to follow. */
  strays(primaryId: string): RedisServerNode[] {
    const now = this.process.localNow();
    const due: RedisServerNode[] = [];
    for (const node of this.group.nodes) {
      if (!this.disagrees(node, primaryId)) {
        this.straySince.delete(node.id);
        continue;
      }
      const since = this.straySince.get(node.id) ?? now;
      this.straySince.set(node.id, since);
      if (now - since >= RECONFIGURE_AFTER_MS) {
        this.straySince.delete(node.id);
        due.push(node);
      }
    }
    return due;
  }

  /** A reachable node whose role contradicts `primaryId` being the primary. */
  disagrees(node: RedisServerNode, primaryId: string): boolean {
    const info = this.info.get(node.id);
    return (
      node.id !== primaryId &&
      info !== undefined &&
      !this.sdown.has(node.id) &&
      (info.role === 'primary' || info.replicaOf !== primaryId)
    );
  }

  /** PING, and on the PONG note the node's INFO; a node held down that answers is up again. */
  ping(node: RedisServerNode): void {
    const network = this.group.network;
    network.send(this.id, node.process, 'PING', () => {
      const info = node.info();
      network.send(node.id, this.process, 'PONG', () => {
        this.lastReplyMs.set(node.id, this.process.localNow());
        this.info.set(node.id, info);
        if (this.sdown.delete(node.id)) {
          this.sim.record('sentinel.sdown', this.id, { node: node.id, down: false });
          this.listener.nodeUp(node.id);
        }
      });
    });
  }

  /** SDOWN: no valid reply for down-after-milliseconds. */
  look(): void {
    const { downAfterMs } = this.group.settings;
    for (const node of this.group.nodes) {
      const silentMs = this.silentMs(node.id);
      if (this.sdown.has(node.id)) continue;
      if (silentMs <= downAfterMs) {
        // Redis checks ten times a second; rather than tick that often, look again exactly
        // when this node's silence would pass down-after-milliseconds, if that is before the next PING.
        const dueMs = downAfterMs - silentMs + 1;
        if (silentMs > 0 && dueMs < PING_PERIOD_MS) this.process.setTimer(dueMs, () => this.look());
        continue;
      }
      this.sdown.add(node.id);
      this.sim.record('sentinel.sdown', this.id, { node: node.id, down: true });
      this.listener.nodeDown(node.id);
    }
    this.listener.looked();
  }
}
