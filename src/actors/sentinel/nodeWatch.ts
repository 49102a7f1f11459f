import type { Sim } from '../../sim/sim';
import type { LocalClockMs } from '../../sim/time';
import type { Process } from '../process/process';
import type { NodeInfo, NodeRole, RedisServerNode } from '../server/redisNode';
import type { SentinelGroupView } from './sentinelPeers';
import {
  CONVERT_AFTER_MS,
  INFO_PERIOD_IN_TROUBLE_MS,
  INFO_PERIOD_MS,
  INFO_STALE_MS,
  PING_PERIOD_MS,
} from './sentinelTiming';

/** What the sentinel tells its watch, and what it does when the watch sees something. */
export interface NodeWatchListener {
  /** The primary the nodes are judged against. */
  readonly primaryId: string;
  /** The replica this sentinel is promoting, if it is failing over (it is no stray). */
  readonly promotingId: string | null;
  /** The primary is objectively down or failing over: replicas are asked for INFO every second. */
  readonly primaryInTrouble: boolean;
  nodeDown(nodeId: string): void;
  nodeUp(nodeId: string): void;
  /** Every look at the nodes' silence ends here (the sentinel counts opinions if its primary is down). */
  looked(): void;
  /** A node answered INFO (noted already, strays marked). */
  infoArrived(nodeId: string, info: NodeInfo): void;
}

/** One node as this sentinel sees it (Redis: its sentinelRedisInstance and instance link). */
interface Sight {
  /** When it last answered a PING (Redis: last_avail_time). */
  lastReplyMs: LocalClockMs;
  /** When the oldest PING it has not answered was sent, if one is pending (Redis: act_ping_time). */
  pingPendingMs: LocalClockMs | null;
  /** Its last INFO, when that arrived (Redis: info_refresh), and when INFO was last asked. */
  info?: NodeInfo;
  infoAtMs: LocalClockMs | null;
  infoAskedMs: LocalClockMs | null;
  /** The role it last reported, since when, and since when it has followed the primary it follows. */
  role: NodeRole;
  roleSinceMs: LocalClockMs;
  followsSinceMs: LocalClockMs;
  /** When its latest SDOWN began (Redis keeps it after the node comes back: s_down_since_time). */
  sdownSinceMs: LocalClockMs | null;
  /** Its latest INFO made it a stray whose time to be told whom to follow has come. */
  strayDue: boolean;
  /** It was told whom to follow after its latest INFO (the next one will show it following). */
  told: boolean;
}

/**
 * A node's sight as Redis makes its instance anew: the role the configuration gives it since
 * now, a PING counted as pending since now, no INFO yet, nothing judged about it.
 */
function instanceAnew(role: NodeRole, now: LocalClockMs) {
  return {
    pingPendingMs: now as LocalClockMs | null,
    infoAtMs: null,
    infoAskedMs: null,
    role,
    roleSinceMs: now,
    followsSinceMs: now,
    strayDue: false,
    told: false,
  };
}

/**
 * What one sentinel has seen of its group's Redis nodes, kept as Redis Sentinel keeps it: when
 * each last answered a PING and since when a PING has gone unanswered, the INFO it last
 * answered (every 10 s, every second for replicas while the primary is in trouble), the role it
 * reports and since when, and which ones are subjectively down (SDOWN). All of it lives in the
 * process's memory, so a restart forgets it (`forget`), while the configuration it is judged
 * against (the primary, the epochs) belongs to the sentinel.
 */
export class NodeWatch {
  private readonly sights = new Map<string, Sight>();
  private readonly sdown = new Set<string>();
  private readonly info = new Map<string, NodeInfo>();

  constructor(
    private readonly sim: Sim,
    private readonly process: Process,
    private readonly group: SentinelGroupView,
    private readonly listener: NodeWatchListener,
  ) {}

  private get id(): string {
    return this.process.id;
  }

  /** A node as first seen (Redis creates its instance link as if a PING were pending since now). */
  private sight(node: RedisServerNode): Sight {
    let sight = this.sights.get(node.id);
    if (!sight) {
      const now = this.process.localNow();
      const role = node.id === this.listener.primaryId ? 'primary' : 'replica';
      sight = { lastReplyMs: now, sdownSinceMs: null, ...instanceAnew(role, now) };
      this.sights.set(node.id, sight);
    }
    return sight;
  }

  /** Starts watching (again): nodes never heard from count their silence from now. */
  begin(): void {
    for (const node of this.group.nodes) this.sight(node);
  }

  /** The process restarted: everything seen is forgotten, and silence counts from now. */
  forget(): void {
    this.sights.clear();
    this.sdown.clear();
    this.info.clear();
    this.begin();
  }

  /**
   * How long `node` has been silent, on this process's clock: since the oldest unanswered PING
   * was sent, or, where its connection is refused (the process is gone) and none was pending,
   * since its last answer (Redis: act_ping_time, else last_avail_time on a closed link).
   */
  silentMs(nodeId: string): number {
    const node = this.group.nodes.find((n) => n.id === nodeId)!;
    const sight = this.sight(node);
    const now = this.process.localNow();
    if (sight.pingPendingMs !== null) return now - sight.pingPendingMs;
    return node.process.crashed ? now - sight.lastReplyMs : 0;
  }

  isDown(nodeId: string): boolean {
    return this.sdown.has(nodeId);
  }

  /**
   * The sentinel took `nodeId` as its primary: Redis makes every instance of the group anew
   * (roles as the configuration says since now, INFO asked at once, silence counted from now),
   * though a node still held down stays down here rather than be marked down again.
   */
  newPrimary(nodeId: string): void {
    const now = this.process.localNow();
    this.sdown.delete(nodeId);
    for (const node of this.group.nodes) {
      const sight = this.sight(node);
      Object.assign(sight, instanceAnew(node.id === nodeId ? 'primary' : 'replica', now), {
        sdownSinceMs: this.sdown.has(node.id) ? now : null,
      });
    }
  }

  /** Nodes held down, for choosing a replica to promote. */
  get down(): ReadonlySet<string> {
    return this.sdown;
  }

  /** The INFO each node last answered with. */
  get seen(): ReadonlyMap<string, NodeInfo> {
    return this.info;
  }

  /** Strays whose last INFO said it is time to tell them whom to follow; each is returned once. */
  strays(): RedisServerNode[] {
    const due = this.group.nodes.filter((node) => this.sight(node).strayDue);
    for (const node of due) Object.assign(this.sight(node), { strayDue: false, told: true });
    return due;
  }

  /** A reachable node whose role contradicts `primaryId` being the primary, and that has not been told yet. */
  disagrees(node: RedisServerNode, primaryId: string): boolean {
    const info = this.info.get(node.id);
    return (
      node.id !== primaryId &&
      !this.sight(node).told &&
      info !== undefined &&
      !this.sdown.has(node.id) &&
      (info.role === 'primary' || info.replicaOf !== primaryId)
    );
  }

  /** One beat of the loop: PING every node, and INFO those whose INFO is due before the next beat. */
  poll(): void {
    for (const node of this.group.nodes) {
      this.ping(node);
      this.pollInfo(node);
    }
  }

  /** The primary is in trouble now: replicas are asked for INFO at the faster pace from now on. */
  pollReplicas(): void {
    for (const node of this.group.nodes) if (node.id !== this.listener.primaryId) this.pollInfo(node);
  }

  /**
   * INFO now if it is due, or exactly when it falls due if that is before the next beat (Redis
   * looks ten times a second, so its INFO goes out within 100 ms of falling due).
   */
  private pollInfo(node: RedisServerNode): void {
    // A process that is gone refuses the connection, and Redis sends nothing down a closed link
    // (the PING still goes out here, so the lane shows the silence).
    if (node.process.crashed) return;
    const waitMs = this.infoWaitMs(node);
    if (waitMs <= 0) this.askInfo(node);
    else if (waitMs < PING_PERIOD_MS)
      this.process.setTimer(waitMs, () => this.infoWaitMs(node) <= 0 && this.askInfo(node));
  }

  /** PING; the PONG is a valid reply (a node held down that answers is up again). */
  private ping(node: RedisServerNode): void {
    const sight = this.sight(node);
    // A process that is gone refuses the connection: no PING is pending on it.
    if (!node.process.crashed && sight.pingPendingMs === null) sight.pingPendingMs = this.process.localNow();
    const network = this.group.network;
    network.send(this.id, node.process, 'PING', () => {
      network.send(node.id, this.process, 'PONG', () => {
        sight.lastReplyMs = this.process.localNow();
        sight.pingPendingMs = null;
        if (this.sdown.delete(node.id)) {
          this.sim.record('sentinel.sdown', this.id, { node: node.id, down: false });
          this.listener.nodeUp(node.id);
        }
      });
    });
  }

  /**
   * How long until `node`'s INFO is due: its period after the last INFO arrived, at once if none
   * has. One unanswered request is not repeated within a beat.
   */
  private infoWaitMs(node: RedisServerNode): number {
    const sight = this.sight(node);
    const now = this.process.localNow();
    const asked = sight.infoAskedMs;
    if (asked !== null && (sight.infoAtMs === null || asked > sight.infoAtMs) && now - asked < PING_PERIOD_MS)
      return asked + PING_PERIOD_MS - now;
    if (sight.infoAtMs === null) return 0;
    const { primaryId, primaryInTrouble } = this.listener;
    const replicaLinkDown = sight.info?.role === 'replica' && !sight.info.linkUp;
    const closely = node.id !== primaryId && (primaryInTrouble || replicaLinkDown);
    return sight.infoAtMs + (closely ? INFO_PERIOD_IN_TROUBLE_MS : INFO_PERIOD_MS) + 1 - now;
  }

  private askInfo(node: RedisServerNode): void {
    const sight = this.sight(node);
    sight.infoAskedMs = this.process.localNow();
    const network = this.group.network;
    network.send(this.id, node.process, 'INFO', () => {
      const info = node.info();
      const label = info.role === 'primary' ? 'role:master' : `role:slave master:${info.replicaOf ?? ''}`;
      network.send(node.id, this.process, label, () => this.noteInfo(node, info));
    });
  }

  /** Redis's sentinelRefreshInstanceInfo: note the role and whom it follows, then judge it. */
  private noteInfo(node: RedisServerNode, info: NodeInfo): void {
    const sight = this.sight(node);
    const now = this.process.localNow();
    const before = sight.info;
    this.info.set(node.id, info);
    sight.info = info;
    sight.infoAtMs = now;
    sight.told = false;
    if (info.role !== sight.role) {
      sight.role = info.role;
      sight.roleSinceMs = now;
      if (info.role === 'replica') sight.followsSinceMs = now;
    } else if (info.role === 'replica' && before !== undefined && before.replicaOf !== info.replicaOf) {
      sight.followsSinceMs = now;
    }
    sight.strayDue = this.strayDue(node, sight, info);
    this.listener.infoArrived(node.id, info);
  }

  /**
   * A node that says it is a primary against the configuration is turned into a replica once it
   * has said so, and been up, four hello periods; a replica following another primary, once it
   * has done so, and been up, failover-timeout. Either only while the primary looks sane.
   */
  private strayDue(node: RedisServerNode, sight: Sight, info: NodeInfo): boolean {
    const { primaryId, promotingId } = this.listener;
    if (node.id === primaryId || node.id === promotingId || !this.primaryLooksSane(primaryId)) return false;
    const now = this.process.localNow();
    const upFor = (ms: number) => sight.sdownSinceMs === null || now - sight.sdownSinceMs > ms;
    if (info.role === 'primary') return upFor(CONVERT_AFTER_MS) && now - sight.roleSinceMs > CONVERT_AFTER_MS;
    const waitMs = this.group.settings.failoverTimeoutMs;
    return info.replicaOf !== primaryId && upFor(waitMs) && now - sight.followsSinceMs > waitMs;
  }

  /** Redis's sentinelMasterLooksSane: up, reporting itself a primary, in a recent INFO. */
  private primaryLooksSane(primaryId: string): boolean {
    const primary = this.sights.get(primaryId);
    return (
      primary !== undefined &&
      !this.sdown.has(primaryId) &&
      primary.info?.role === 'primary' &&
      primary.infoAtMs !== null &&
      this.process.localNow() - primary.infoAtMs < INFO_STALE_MS
    );
  }

  /** SDOWN: no valid reply for down-after-milliseconds. */
  look(): void {
    const { downAfterMs } = this.group.settings;
    for (const node of this.group.nodes) {
      if (this.sdown.has(node.id)) continue;
      const silentMs = this.silentMs(node.id);
      if (silentMs <= downAfterMs) {
        // Redis checks ten times a second; rather than tick that often, look again exactly
        // when this node's silence would pass down-after-milliseconds, if that is before the next PING.
        const dueMs = downAfterMs - silentMs + 1;
        if (silentMs > 0 && dueMs < PING_PERIOD_MS) this.process.setTimer(dueMs, () => this.look());
        continue;
      }
      this.sdown.add(node.id);
      this.sight(node).sdownSinceMs = this.process.localNow();
      this.sim.record('sentinel.sdown', this.id, { node: node.id, down: true });
      this.listener.nodeDown(node.id);
    }
    this.listener.looked();
  }
}
