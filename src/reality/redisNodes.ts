import type { ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import type { Children } from './children';
import { fakeClock } from './fakeClock';
import { LeaseWatcher, type LeaseChange } from './leaseWatcher';
import { clusterDir, clusterOptions, formCluster } from './realCluster';
import { onFreePort, startRedis } from './redisServer';
import type { NodeSetup } from './nodeSetups';
import type { ServerNetwork } from './serverNetwork';

interface RealNode {
  port: number;
  /** The port everyone else dials: its front, when the servers' network is staged (serverNetwork.ts). */
  publicPort: number;
  process: ChildProcess;
  /** Its wall clock under libfaketime, when the script steps it; the offset so far in real ms. */
  clock: ReturnType<typeof fakeClock> | undefined;
  clockOffsetRealMs: number;
  watcher: LeaseWatcher;
  /** Its options, `--replicaof` included for a replica: a restart starts it the same way. */
  args: string[];
}

/**
 * The scenario's Redis nodes as real redis-servers (one, Redlock's N independent masters, or a
 * primary and its replicas), each on its own free loopback port and watched by its own
 * LeaseWatcher, so every lease in the trace is one node's, as in the simulator. The primaries
 * start side by side, then the replicas, each with `--replicaof` its primary. When the scenario
 * stages the servers' network (a replica's lag, a partition between servers: serverNetwork.ts),
 * each node opens its connections from an address of its own and is known to everyone, itself
 * announcing it, by its front. start() returns once every replica has its primary's data.
 * A node whose clock the script steps runs under libfaketime, with its own control file.
 */
export class RedisNodes {
  private readonly nodes = new Map<string, RealNode>();
  /** Every libfaketime control file made, so close() removes each whatever failed after it. */
  private readonly clocks: ReturnType<typeof fakeClock>[] = [];
  /** The cluster nodes' tables, when the nodes form a cluster. */
  private cluster: ReturnType<typeof clusterDir> | null = null;

  constructor(
    private readonly children: Children,
    private readonly setups: readonly NodeSetup[],
    /** The nodes whose wall clock the script steps. */
    private readonly jumped: ReadonlySet<string>,
    private readonly keys: ReadonlySet<string>,
    /** A lease change on node `id`, timed on the harness's monotonic clock. */
    private readonly onChange: (id: string, change: LeaseChange, atReal: number) => void,
    /** Real seconds per scenario second (a cluster's node timeout is scaled). */
    private readonly scale: number,
    private readonly servers: ServerNetwork | null,
  ) {}

  /**
   * Starts every node and resolves when each accepts connections, its watcher hears it, each
   * replica is in sync and a cluster is formed.
   */
  async start(): Promise<void> {
    const shards = this.setups.flatMap((n) => (n.slots === null ? [] : [{ id: n.id, slots: n.slots }]));
    const cluster = shards.length > 0 ? (this.cluster = clusterDir()) : null;
    const busPorts = new Map<string, number>();
    await Promise.all(
      this.setups
        .filter((n) => n.replicaOf === null)
        .map(async (n) => {
          if (!cluster) return this.startNode(n, n.options);
          const { args, busPort } = await clusterOptions(cluster.dir, n.id, this.scale);
          busPorts.set(n.id, busPort);
          return this.startNode(n, [...n.options, ...args]);
        }),
    );
    if (cluster)
      await formCluster(
        shards,
        (id) => this.port(id),
        (id) => busPorts.get(id)!,
      );
    await Promise.all(
      this.setups
        .filter((n) => n.replicaOf !== null)
        .map(async (n) => {
          await this.startNode(n, [...n.options, '--replicaof', '127.0.0.1', String(this.port(n.replicaOf!))]);
          await this.inSync(n.id);
        }),
    );
  }

  private async startNode({ id, persistent }: NodeSetup, options: string[]): Promise<void> {
    const front = await this.servers?.front(id);
    const args = [
      ...options,
      ...(persistent ? ['--dir', this.children.tempDir('lockstep-aof-')] : []),
      // Its own connections (to its primary) come from its address, and it names its front as
      // its address to a primary (which lists it to Sentinel), now and after a failover.
      ...(front
        ? [
            '--bind-source-addr',
            this.servers!.address(id),
            '--replica-announce-ip',
            '127.0.0.1',
            '--replica-announce-port',
            String(front.port),
          ]
        : []),
    ];
    const clock = this.jumped.has(id) ? fakeClock() : undefined;
    if (clock) this.clocks.push(clock);
    const { port, started: process } = await onFreePort((port) => startRedis(this.children, port, clock?.env, args));
    // The watcher connects only once its server listens: one retrying a port nobody holds
    // yet can land on another harness's free-port probe of that same port.
    const watcher = new LeaseWatcher(
      port,
      this.keys,
      () => performance.now(),
      (change, at) => this.onChange(id, change, at),
    );
    front?.target(port);
    this.nodes.set(id, { port, publicPort: front?.port ?? port, process, clock, clockOffsetRealMs: 0, watcher, args });
    await watcher.start();
  }

  /** Resolves once replica `id` has loaded its primary's data and follows its stream. */
  private async inSync(id: string): Promise<void> {
    const redis = new Redis({ port: this.port(id), host: '127.0.0.1', lazyConnect: true });
    redis.on('error', () => undefined);
    try {
      for (let tries = 0; tries < 300; tries++) {
        const info = await redis.info('replication').catch(() => '');
        if (/master_link_status:up/.test(info) && !/master_sync_in_progress:1/.test(info)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`replica ${id} did not sync with its primary within 15 s`);
    } finally {
      redis.disconnect();
    }
  }

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  /** The port node `id` is reached at (its front's, when the servers' network is staged). */
  port(id: string): number {
    return this.nodes.get(id)!.publicPort;
  }

  process(id: string): ChildProcess {
    return this.nodes.get(id)!.process;
  }

  /** SIGKILL, and every lease the node held ends `lost` now: it keeps nothing across a crash. */
  crash(id: string): void {
    const node = this.nodes.get(id)!;
    this.children.signal(node.process, 'SIGKILL');
    node.watcher.lostAll(performance.now());
  }

  /**
   * A new redis-server on the same port (and clock and options), empty unless it keeps an AOF,
   * which it loads again (everything written before a SIGKILL: the OS had it): a replica follows its
   * configured primary again, a primary comes back as a primary (Sentinel turns it into a
   * replica when another was promoted meanwhile).
   */
  async restart(id: string): Promise<void> {
    const node = this.nodes.get(id)!;
    node.process = await startRedis(this.children, node.port, node.clock?.env, node.args);
    // A node with an AOF loaded its lock keys again, which no notification announces.
    if (node.args.includes('--appendonly')) await node.watcher.reloaded(performance.now());
  }

  /** Steps the node's wall clock by `byRealMs` more: every key's expiry comes closer (or farther) at once. */
  jumpClock(id: string, byRealMs: number): void {
    const node = this.nodes.get(id)!;
    node.clockOffsetRealMs += byRealMs;
    node.clock!.setOffsetSeconds(node.clockOffsetRealMs / 1000);
  }

  /** Waits for every lease change heard so far on every node to be reported. */
  async settled(): Promise<void> {
    await Promise.all([...this.nodes.values()].map((n) => n.watcher.settled()));
  }

  /**
   * Stops the watchers' connections, and removes the
   * clocks' control files and the cluster's tables (the servers are Children's).
   */
  close(): void {
    for (const node of this.nodes.values()) node.watcher.stop();
    for (const clock of this.clocks) clock.remove();
    this.cluster?.remove();
  }
}
