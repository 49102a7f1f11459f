import type { Network } from '../../net/network';
import { assert } from '../../sim/assert';
import type { Sim } from '../../sim/sim';
import type { ActorInfo } from '../../sim/traceEvents';
import type { Process } from '../process/process';
import type { UntimedAction } from '../action';
import { commandKeys } from '../../redis/clusterRouting';
import { keySlot } from '../../redis/keySlot';
import { ClusterHealth } from './clusterHealth';
import { ClusterAddress, PrimaryAddress, type WaitAfterWrites } from './replicationAddress';
import type { RedisNode, RedisNodeOptions, RedisServerNode } from './redisNode';
import { SentinelGroup } from '../sentinel/sentinelGroup';
import type { SentinelSettings } from '../sentinel/sentinelPeers';

/** Sentinels watching one primary and its replicas. */
export interface SentinelSpec {
  /** The group's name (`mymaster`): a `failover` step may target it. */
  name: string;
  ids: string[];
  /** The primary they monitor at the start. */
  primary: string;
  settings: SentinelSettings;
}

/** Everything about Redis beyond "one node per id": roles, persistence, sentinels, client WAIT. */
export interface TopologySpec {
  /** Per-node settings by node id (missing: a lone primary without persistence). */
  nodes: Record<string, Partial<RedisNodeOptions>>;
  sentinels: SentinelSpec | null;
  /** Clients follow every write with WAIT (null: they do not). */
  wait: WaitAfterWrites | null;
  /** A cache workload filling one node's memory (null: none). */
  cacheLoad?: CacheLoadSpec | null;
}

/** SET cache:<n> <valueSize bytes> EX <ttl> on `target` every `everyMs`, from `startAtMs`, `writes` times (null: forever). */
export interface CacheLoadSpec {
  target: string;
  everyMs: number;
  valueSize: number;
  ttlMs: number;
  startAtMs: number;
  writes: number | null;
  reads: boolean;
}

/** Actions only a replicated world understands. */
export type TopologyAction = Extract<UntimedAction, { do: 'failover' | 'power-loss' }>;

/**
 * Wires replication and Sentinel into a world: connects replicas to their primaries, starts
 * the sentinels, hands clients their addresses (Sentinel-aware for the monitored primary), and
 * applies failover and power-loss actions.
 *
 * Background loops (server crons, sentinel PINGs) would keep a run going forever, so they
 * sleep once no client has anything left to do and no sentinel is busy; any action wakes them.
 */
export class ReplicationTopology {
  readonly group: SentinelGroup | null = null;
  private sleepers: (() => void)[] = [];
  private readonly replicated: boolean;

  constructor(
    private readonly sim: Sim,
    private readonly network: Network,
    private readonly nodes: readonly RedisServerNode[],
    private readonly spec: TopologySpec | null,
    private readonly clientsActive: () => boolean,
  ) {
    const control = {
      keepRunning: () => this.keepRunning(),
      sleeping: (restart: () => void) => this.sleepers.push(restart),
    };
    if (spec?.cacheLoad) this.startCacheLoad(spec.cacheLoad);
    if (nodes.some((n) => n.options.slots !== null)) {
      const health = new ClusterHealth(sim, nodes);
      const map = {
        ownerOf: (self: string, slot: number) => this.slotOwner(self, slot),
        ok: (self: string) => health.ok(self),
      };
      for (const node of nodes) node.clusterMap = map;
    }
    const s = spec?.sentinels;
    if (s) {
      const members = nodes.filter((n) => n.id === s.primary || n.options.replicaOf === s.primary);
      this.group = new SentinelGroup(sim, s.name, s.settings, members, s.primary, network, s.ids, control);
    }
    // An AOF needs the cron too (everysec fsyncs from it).
    this.replicated =
      this.group !== null || nodes.some((n) => n.role === 'replica' || n.options.persistence !== 'none');
    // A lone node without persistence is left exactly as before: no cron, so such runs are unchanged.
    if (!this.replicated) return;
    // Lanes start with each node's role, so the timeline can label primaries and replicas.
    for (const node of nodes)
      sim.record('redis.role', node.id, { role: node.role, of: node.replicaOf, reason: 'configured' });
    const links = { network, lookup: (id: string) => this.node(id), ...control };
    for (const node of nodes) node.connect(links);
    this.group?.start();
  }

  /**
   * The cache workload: it runs as the target node's own work (a paused node stops taking it),
   * writes values big enough to fill maxmemory, and sleeps with the other background loops.
   */
  private startCacheLoad(load: CacheLoadSpec): void {
    const node = this.node(load.target);
    if (!node) return;
    const value = 'x'.repeat(load.valueSize);
    const ttlS = String(Math.max(1, Math.round(load.ttlMs / 1000)));
    let n = 0;
    let awake = false;
    const tick = () => {
      if (load.writes !== null && n >= load.writes) return;
      if (!this.keepRunning()) {
        awake = false;
        this.sleepers.push(start);
        return;
      }
      node.execute(['SET', `cache:${n}`, value, 'EX', ttlS], 'cache', -1);
      if (load.reads && n > 0) node.execute(['GET', `cache:${n - 1}`], 'cache', -1);
      n++;
      node.process.setTimer(load.everyMs, tick);
    };
    const start = () => {
      if (awake || node.process.crashed) return;
      awake = true;
      node.process.setTimer(load.everyMs, tick);
    };
    awake = true;
    this.sim.kernel.schedule(load.startAtMs, node.process.owner, tick);
  }

  private node(id: string): RedisServerNode | undefined {
    return this.nodes.find((n) => n.id === id);
  }

  /** The primary that serves `slot` by the configured slot map, or undefined. */
  private servingNode(slot: number): RedisServerNode | undefined {
    return this.nodes.find(
      (n) => n.role === 'primary' && (n.options.slots ?? []).some(([from, to]) => from <= slot && slot <= to),
    );
  }

  /** A slot's owner as node `self` answers it: itself, `host:port` of another node, or nobody. */
  private slotOwner(self: string, slot: number): 'self' | string | null {
    const owner = this.servingNode(slot);
    if (!owner) return null;
    return owner.id === self ? 'self' : `${owner.id}:6379`;
  }

  /**
   * What a client configured with `node: <id>` talks to: the monitored primary's id (or the
   * group's name) gives a Sentinel-aware address that follows failovers; any other node is
   * talked to directly. Either way, with `wait` set, writes are followed by WAIT.
   */
  address(id: string): RedisNode {
    const wait = this.spec?.wait ?? null;
    const group = this.group;
    if (this.nodes.some((n) => n.options.slots !== null)) {
      const fallback = this.node(id)!;
      return new ClusterAddress((argv) => {
        const key = argv ? commandKeys(argv)[0] : undefined;
        return (key === undefined ? undefined : this.servingNode(keySlot(key))) ?? fallback;
      }, wait);
    }
    if (group && (id === group.name || id === this.spec?.sentinels?.primary)) {
      const cut = (from: string, to: string) => this.network.partitions.blocks(from, to);
      // A client hears +switch-master when some live sentinel can reach it.
      const heard = (from: string) => group.sentinels.some((s) => !s.process.crashed && !cut(s.id, from));
      return new PrimaryAddress(
        group.name,
        () => group.currentPrimary(),
        wait,
        (from, node) => !cut(from, node.id) && (node === group.currentPrimary() || !heard(from)),
      );
    }
    const node = this.node(id)!;
    if (!wait) return node;
    return new PrimaryAddress(id, () => node, wait);
  }

  /** The sentinels' processes (for pause/crash/partition targets). */
  processes(): Process[] {
    return this.group?.sentinels.map((s) => s.process) ?? [];
  }

  /** Timeline lanes for the sentinels. */
  actorInfos(): ActorInfo[] {
    return (
      this.group?.sentinels.map((s): ActorInfo => ({ id: s.id, label: `Sentinel ${s.id}`, role: 'sentinel' })) ?? []
    );
  }

  /**
   * Applies a failover or a power loss. A failover that cannot start (every Sentinel down or
   * already failing over; without Sentinel, no replica fit to promote) is recorded as aborted,
   * so the trace says why nothing happened. Targets were checked when the scenario was read.
   */
  apply(action: TopologyAction): void {
    if (action.do === 'power-loss') {
      const node = this.node(action.target);
      assert(node, () => `power-loss: no Redis node '${action.target}'`);
      node.powerLoss();
      return;
    }
    const group = this.group;
    if (group && (action.target === group.name || group.nodes.some((n) => n.id === action.target))) {
      if (!group.failover())
        this.sim.record('failover.abort', action.target, {
          group: group.name,
          reason: 'no Sentinel could start it: each is down, paused or already failing over',
        });
      return;
    }
    assert(this.node(action.target), () => `failover: no Redis node '${action.target}'`);
    if (!this.operatorFailover(action.target))
      this.sim.record('failover.abort', action.target, {
        group: action.target,
        reason: `no replica of ${action.target} is up with a priority above 0 to promote by hand`,
      });
  }

  /**
   * Without Sentinel, "fail over" is what an operator would do by hand: REPLICAOF NO ONE on
   * the most advanced replica of `primaryId`, and point the other replicas (and the old
   * primary) at it.
   */
  private operatorFailover(primaryId: string): boolean {
    const replicas = this.nodes
      .filter((n) => n.role === 'replica' && n.replicaOf === primaryId && !n.process.crashed && n.options.priority > 0)
      .sort(
        (a, b) =>
          a.options.priority - b.options.priority ||
          b.replica.offset - a.replica.offset ||
          (a.runId < b.runId ? -1 : 1),
      );
    const chosen = replicas[0];
    if (!chosen) return false;
    chosen.promote('manual failover (REPLICAOF NO ONE)');
    for (const n of this.nodes)
      if (n !== chosen && (n.id === primaryId || n.replicaOf === primaryId))
        n.follow(chosen.id, `re-pointed to ${chosen.id} by hand`);
    return true;
  }

  /** Something happened (a scripted step or a learner action): background loops run again. */
  wake(): void {
    const sleepers = this.sleepers;
    this.sleepers = [];
    for (const restart of sleepers) restart();
  }

  private keepRunning(): boolean {
    return this.clientsActive() || (this.group?.busy ?? false);
  }
}
