import type { Network } from '../../net/network';
import { AppendOnlyFile } from '../../redis/aof';
import type { AppendFsync, MaxmemoryPolicy } from '../../redis/config';
import type { Reply } from '../../redis/reply';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { RedisServer } from '../../redis/server';
import { BLOCKED } from '../../redis/serverOptions';
import type { Sim } from '../../sim/sim';
import { withActor, type TraceTag } from '../../sim/trace';
import { COMMAND, CommandOutcome } from './commandCodec';
import { ActiveExpiry } from './activeExpiry';
import { LeaseWatch } from './leaseWatch';
import { Process } from '../process/process';
import { ReplicationPrimary } from './replicationPrimary';
import { ReplicationReplica } from './replicationReplica';
import type { ReplicationNode } from './replicationPeer';
import { replyLine } from './replyLine';
import { unixOfLocal } from '../process/unixClock';
import type { UnixMs } from '../../sim/time';

export type NodeRole = 'primary' | 'replica';
/** none: nothing survives a restart; otherwise appendonly yes with this appendfsync. */
export type Persistence = 'none' | AppendFsync;

/** How a node is set up; everything is optional so a lone node needs none of it. */
export interface RedisNodeOptions {
  role: NodeRole;
  /** The primary a replica follows. */
  replicaOf: string | null;
  /** replica-priority: lower is preferred by Sentinel; 0 is never promoted. */
  priority: number;
  /** Extra delay before the stream from `replicaOf` leaves for this replica (a slow link); none from other primaries. */
  replicationLagMs: number;
  persistence: Persistence;
  minReplicasToWrite: number;
  minReplicasMaxLagS: number;
  /** Cluster slot ranges this primary serves ([from, to] inclusive); null: not a cluster node. */
  slots: Array<[number, number]> | null;
  /** maxmemory in bytes (0: no limit) and the policy applied when a write would pass it. */
  maxmemoryBytes: number;
  maxmemoryPolicy: MaxmemoryPolicy;
}

export const DEFAULT_NODE_OPTIONS: RedisNodeOptions = {
  role: 'primary',
  replicaOf: null,
  priority: 100,
  replicationLagMs: 0,
  persistence: 'none',
  minReplicasToWrite: 0,
  minReplicasMaxLagS: 10,
  maxmemoryBytes: 0,
  maxmemoryPolicy: 'noeviction',
  slots: null,
};

/** What the rest of a replicated world offers a node: the network, its peers, and whether to keep ticking. */
export interface NodeLinks {
  network: Network;
  lookup(id: string): RedisServerNode | undefined;
  /** False once the run has nothing left to do, so background crons stop and the run can end. */
  keepRunning(): boolean;
  /** Registers a background loop to restart when something happens again (see Topology.wake). */
  sleeping(restart: () => void): void;
}

/** What a node answers Sentinel's PING/INFO with. */
export interface NodeInfo {
  id: string;
  runId: string;
  role: NodeRole;
  replicaOf: string | null;
  offset: number;
  priority: number;
  /** A replica whose initial sync has not finished cannot be promoted. */
  linkUp: boolean;
}

/**
 * Something a client sends Redis commands to: a node, or a Sentinel-aware address
 * (replicationAddress.ts) that resolves to whichever node is primary when a request leaves.
 */
export interface RedisNode {
  readonly id: string;
  readonly process: Process;
  readonly server: RedisServer;
  /** The connection a request for `argv` from client `from` goes through now: a node, or a wrapper around one. */
  resolve(argv?: readonly string[], from?: string): RedisNode;
  /**
   * Runs `argv` and answers through `respond`. A connection that follows writes with WAIT
   * passes WAIT's own reply as `waited` (see `waitingConnection`).
   */
  execute(argv: string[], from: string, msg: number, respond?: (reply: Reply, waited?: WaitReply) => void): void;
}

/** WAIT's integer reply after a write, and what the client asked for. */
export interface WaitReply {
  acks: Reply;
  replicas: number;
  timeoutMs: number;
  /** Whether the client library deletes a key it refused for too few acknowledgements. */
  releaseRefused: boolean;
}

/**
 * A Redis node as a process: it executes commands that arrive over the network against its
 * own keyspace and clock, replicates (as a primary or a replica), keeps an AOF when
 * configured, and watches the lock keys so the trace shows each lease as this node sees it.
 *
 * It is also the simplest `RedisNode` address: `resolve()` is the node itself. A
 * Sentinel-aware address (replicationAddress.ts) resolves to whichever node is primary now.
 */
export class RedisServerNode implements RedisNode, ReplicationNode {
  readonly process: Process;
  server!: RedisServer;
  readonly options: RedisNodeOptions;
  role: NodeRole;
  replicaOf: string | null;
  runId = '';
  readonly primary: ReplicationPrimary;
  readonly replica: ReplicationReplica;
  links: NodeLinks | null = null;
  private aof: AppendOnlyFile | null = null;
  /** What the disk holds while the process is down. */
  private disk: string[][] = [];
  private crashCause: 'crash' | 'power-loss' = 'crash';
  private readonly leases: LeaseWatch;
  private readonly expiry: ActiveExpiry;
  /** `redis.command` by this node, as the trace stores it (recorded for every command). */
  private readonly commandTag: TraceTag<'redis.command'>;
  /** Each argv's latest outcome, reused while the same argv gets the same (shared) reply line. */
  private readonly lastOutcomes = new Map<string[], CommandOutcome>();
  private lives = 0;
  private cronAwake = false;
  /** The client whose command is running (WAIT counts from that client's last write). */
  currentClient = '';
  /** The cluster's slot map (set by the topology): who serves a slot, seen from this node. */
  clusterMap: { ownerOf(node: string, slot: number): 'self' | string | null; ok(node: string): boolean } | null = null;

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    lockKeys: readonly string[],
    /** Maps a lock value back to the client that chose it (values are random tokens). */
    ownerOf: (value: string) => string,
    private readonly scripts: ScriptEngine | undefined,
    options: Partial<RedisNodeOptions> = {},
  ) {
    this.options = { ...DEFAULT_NODE_OPTIONS, ...options };
    this.role = this.options.role;
    this.replicaOf = this.options.replicaOf;
    this.process = new Process(sim, id);
    this.commandTag = sim.trace.tagOf('redis.command', id);
    this.leases = new LeaseWatch(sim, this, lockKeys, ownerOf);
    this.expiry = new ActiveExpiry(sim, this, lockKeys, () => this.leases.check());
    this.primary = new ReplicationPrimary(sim, this);
    this.replica = new ReplicationReplica(sim, this);
    this.boot([]);
    this.expiry.start();
    this.process.onCrash(() => {
      // What survives is decided now: the page cache dies with the machine, not with the process.
      this.disk = this.aof ? this.aof.survivors(this.crashCause) : [];
      this.crashCause = 'crash';
      this.cronAwake = false;
      this.primary.reset();
      this.replica.stop();
      this.leases.endAll('lost');
      this.expiry.stop();
    });
    this.process.onRestart(() => {
      const before = this.disk.length;
      this.boot(this.disk);
      this.sim.record('redis.recover', this.id, {
        persistence: this.options.persistence,
        commands: before,
        keys: this.server.storedKeyCount,
      });
      this.leases.check();
      this.expiry.start();
      this.startCron();
      if (this.role === 'replica' && this.replicaOf !== null) this.replica.connect(this.replicaOf);
    });
    // A crashed node's keyspace is gone until the restart reloads it: a clock jump meanwhile
    // must not read the old one and show its leases granted again.
    this.process.onClockJump(() => {
      if (this.process.crashed) return;
      this.leases.clockJumped();
      this.expiry.refresh();
    });
  }

  /** Starts a new server life: a fresh keyspace loaded from `commands` (an AOF being replayed). */
  private boot(commands: string[][]): void {
    const random = this.sim.random.fork(`redis:${this.id}`);
    this.runId = this.sim.random.fork(`runid:${this.id}:${this.lives++}`).hex(20);
    this.server = new RedisServer({
      clock: () => this.unixNowMs(),
      random: () => random.float(),
      // Each start of a node is a new process with its own script state (math.random).
      scripts: this.scripts?.forServer?.() ?? this.scripts,
      ...(this.options.slots === null
        ? {}
        : {
            cluster: {
              ownerOf: (slot: number) => this.clusterMap?.ownerOf(this.id, slot) ?? null,
              ok: () => this.clusterMap?.ok(this.id) ?? true,
            },
          }),
      replication: {
        isReplica: () => this.role === 'replica',
        goodReplicas: () => this.primary.log.goodReplicas,
        wait: (numReplicas, timeoutMs) => this.primary.waitNow(this.currentClient, numReplicas, timeoutMs),
      },
      onPropagate: (effects) => this.propagated(effects),
      onEvict: (key) => {
        this.sim.record('redis.evict', this.id, { key, policy: this.server.config['maxmemory-policy'] });
        this.leases.evicted(key);
      },
    });
    this.server.config.maxmemory = this.options.maxmemoryBytes;
    this.server.config['maxmemory-policy'] = this.options.maxmemoryPolicy;
    this.server.config['min-replicas-to-write'] = this.options.minReplicasToWrite;
    this.server.config['min-replicas-max-lag'] = this.options.minReplicasMaxLagS;
    if (this.options.persistence !== 'none') {
      this.server.config.appendonly = true;
      this.server.config.appendfsync = this.options.persistence;
      this.server.load(commands);
      this.aof = new AppendOnlyFile(this.options.persistence, this.unixNowMs(), commands);
    }
  }

  /** Wires the node into a replicated world and starts its once-a-second cron. */
  connect(links: NodeLinks): void {
    this.links = links;
    this.startCron();
    if (this.role === 'replica' && this.replicaOf !== null) this.replica.connect(this.replicaOf);
  }

  /** The node's clock as Redis reports it (Unix ms): its process's local clock, from the epoch. */
  unixNowMs(): UnixMs {
    return unixOfLocal(this.process.localNow());
  }

  /**
   * Tells the active-expiry cycle whether the world still has work, so that a key nobody
   * watches (a cache entry) does not keep a finished run going (see ActiveExpiry).
   */
  expireWhile(keepRunning: () => boolean): void {
    this.expiry.keepRunning = keepRunning;
    this.expiry.refresh();
  }

  /** One active-expiry cycle; its DELs are no client's write (WAIT counts none of them). */
  expireCycle(): string[] {
    this.currentClient = '';
    return this.server.activeExpireCycle();
  }

  /** Whether this node deletes expired keys itself: a primary does, a replica waits for DEL. */
  expiresKeysItself(): boolean {
    return this.role === 'primary';
  }

  /** A plain node is its own address. */
  resolve(): RedisServerNode {
    return this;
  }

  /**
   * Runs one command as if it just arrived from `from`. `respond` gets the reply: at once, or
   * later for a command that blocks (WAIT), when the replicas acknowledge or the timeout passes.
   */
  execute(argv: string[], from: string, msg: number, respond: (reply: Reply) => void = () => {}): void {
    this.currentClient = from;
    const reply = this.server.exec(argv);
    this.expiry.refresh();
    if (reply === BLOCKED) {
      const timeoutMs = Number(argv[2]);
      this.sim.record('redis.wait', this.id, { msg, from, numReplicas: Number(argv[1]), timeoutMs });
      this.primary.block(from, Number(argv[1]), timeoutMs, (answer) => {
        this.recordCommand(argv, from, msg, answer);
        respond(answer);
      });
      return;
    }
    this.recordCommand(argv, from, msg, reply);
    this.leases.check();
    respond(reply);
  }

  private recordCommand(argv: string[], from: string, msg: number, reply: Reply): void {
    // A contended lock's refused attempts send the same argv (one array per client and key)
    // and get the same shared `nil` line, again and again: they share one outcome.
    const line = replyLine(reply);
    let outcome = this.lastOutcomes.get(argv);
    if (outcome?.reply !== line) {
      if (this.lastOutcomes.size >= 256) this.lastOutcomes.clear(); // argvs made per call come and go
      this.lastOutcomes.set(argv, (outcome = new CommandOutcome(argv, line)));
    }
    this.sim.recordCoded(this.commandTag, COMMAND, withActor(msg, this.sim.trace.actorId(from)), outcome);
  }

  /** Applies one batch from the primary (or a snapshot) and shows what it did to the leases. */
  applyFromPrimary(effects: readonly string[][]): void {
    for (const argv of effects) this.server.execFromPrimary([...argv]);
    this.leases.check();
  }

  /** Throws the dataset away and loads a full-resync snapshot, like a replica loading an RDB. */
  loadSnapshot(commands: readonly string[][]): number {
    const discarded = this.server.storedKeyCount;
    this.server.flushAll();
    this.server.load(commands);
    if (this.aof)
      this.aof = new AppendOnlyFile(
        this.aof.policy,
        this.unixNowMs(),
        commands.map((c) => [...c]),
      );
    this.leases.check();
    return discarded;
  }

  /** Every write this node makes goes to its AOF and, on a primary, to its replicas. */
  private propagated(effects: string[][]): void {
    this.aof?.append(effects);
    if (this.role === 'primary') this.primary.feed(this.currentClient, effects);
  }

  /** What a PING/INFO tells a sentinel. */
  info(): NodeInfo {
    return {
      id: this.id,
      runId: this.runId,
      role: this.role,
      replicaOf: this.replicaOf,
      offset: this.role === 'primary' ? this.primary.log.offset : this.replica.offset,
      priority: this.options.priority,
      linkUp: this.role === 'primary' || this.replica.synced,
    };
  }

  /** REPLICAOF NO ONE: stop following, keep the data, start taking writes. */
  promote(reason: string): void {
    if (this.role === 'primary') return;
    const offset = this.replica.offset;
    this.replica.stop();
    this.role = 'primary';
    this.replicaOf = null;
    this.primary.start(offset);
    this.sim.record('redis.role', this.id, { role: 'primary', of: null, reason });
    this.expiry.refresh();
  }

  /** REPLICAOF <primary>: follow it; the full resync that follows replaces this node's data. */
  follow(primaryId: string, reason: string): void {
    if (this.role === 'replica' && this.replicaOf === primaryId) return;
    this.primary.reset();
    this.role = 'replica';
    this.replicaOf = primaryId;
    this.sim.record('redis.role', this.id, { role: 'replica', of: primaryId, reason });
    this.expiry.stop();
    this.replica.connect(primaryId);
  }

  /** The machine loses power: a crash in which only fsynced data survives. */
  powerLoss(): void {
    if (this.process.crashed) return;
    this.sim.record('process.power-loss', this.id, {});
    this.crashCause = 'power-loss';
    this.process.crash();
  }

  /** The server cron, once a second: AOF fsync, good-replica count, replica ACKs and resends. */
  private startCron(): void {
    if (this.cronAwake || !this.links) return;
    this.cronAwake = true;
    const tick = () => {
      this.aof?.tick(this.unixNowMs());
      // Unsynced AOF data keeps the cron alive until the fsync that covers it.
      if (!this.links!.keepRunning() && this.unsyncedCommands === 0) {
        this.cronAwake = false;
        this.links!.sleeping(() => this.startCron());
        return;
      }
      if (this.role === 'primary') this.primary.cron();
      else this.replica.cron();
      this.process.setTimer(1000, tick);
    };
    // A crash drops the pending tick (the process's life ends); a restart starts a new cron.
    this.process.setTimer(1000, tick);
  }

  /** Number of AOF commands a power loss right now would forget. */
  private get unsyncedCommands(): number {
    return this.aof?.unsynced ?? 0;
  }
}
