import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import type { WorldSpec } from '../actors/world';
import type { Scenario } from '../scenario/schema/schema';
import type { Children } from './children';
import type { ClientWiring } from './clientConfig';
import type { RedisNodes } from './redisNodes';
import type { Report } from './protocol';
import { onFreePort, startServer } from './redisServer';
import { SentinelReader } from './sentinelEvents';
import type { ServerNetwork } from './serverNetwork';

/** The Sentinel group as the scenario sets it, its durations already scaled to real milliseconds. */
export interface SentinelSetup {
  name: string;
  /** The monitored primary's id. */
  primary: string;
  ids: readonly string[];
  quorum: number;
  downAfterRealMs: number;
  failoverTimeoutRealMs: number;
  /** The monitored primary's port, and how many replicas it has (each sentinel must know them all). */
  primaryPort: number;
  replicas: number;
  /** The scenario's Redis node on each loopback port. */
  nodes: Record<number, string>;
}

/** The scenario's Sentinel group on the real nodes `nodes` (null without Sentinel). */
export function sentinelSetup(
  spec: WorldSpec,
  scenario: Scenario,
  nodes: RedisNodes,
  scale: number,
): SentinelSetup | null {
  const group = spec.topology?.sentinels;
  if (!group) return null;
  return {
    name: group.name,
    primary: group.primary,
    ids: group.ids,
    quorum: group.settings.quorum,
    downAfterRealMs: group.settings.downAfterMs * scale,
    failoverTimeoutRealMs: group.settings.failoverTimeoutMs * scale,
    primaryPort: nodes.port(group.primary),
    replicas: scenario.redis.nodes.filter((n) => n.replicaOf === group.primary).length,
    nodes: Object.fromEntries(spec.redisNodes.map((n) => [nodes.port(n.id), n.id])),
  };
}

interface RealSentinel {
  port: number;
  process: ChildProcess;
  /** Its pub/sub connection: every announcement it makes, timed on arrival. */
  events: Redis;
}

/**
 * The scenario's sentinels as real ones: `redis-server <config> --sentinel` each (Debian's
 * redis-sentinel is that same binary), on free loopback ports, each with its own config file
 * in a temporary directory (Sentinel rewrites it as it learns), monitoring the primary with the
 * scenario's quorum, down-after and failover timeout. start() returns once every sentinel knows
 * the others and every replica, so a failover can happen from the first moment of the run.
 * Each sentinel's announcements are read as the simulated Sentinel's events (sentinelEvents.ts).
 */
export class Sentinels {
  private readonly sentinels = new Map<string, RealSentinel>();
  private readonly runIds = new Map<string, string>();
  private readonly dir: string;

  constructor(
    private readonly children: Children,
    private readonly setup: SentinelSetup,
    /** The servers' network, when staged: each sentinel then calls from its own address and is known by its front. */
    private readonly servers: ServerNetwork | null,
    /** A sentinel's announcement as trace events, timed on the harness's monotonic clock. */
    private readonly onEvent: (report: Report, atReal: number) => void,
  ) {
    this.dir = children.tempDir('lockstep-sentinel-');
  }

  async start(): Promise<void> {
    const s = this.setup;
    await Promise.all(
      s.ids.map(async (id) => {
        const file = join(this.dir, `${id}.conf`);
        const front = await this.servers?.front(id);
        const { port, started: process } = await onFreePort((port) => {
          writeFileSync(
            file,
            [
              `port ${port}`,
              'bind 127.0.0.1',
              'protected-mode no',
              `dir ${this.dir}`,
              'sentinel resolve-hostnames no',
              `sentinel monitor ${s.name} 127.0.0.1 ${s.primaryPort} ${s.quorum}`,
              `sentinel down-after-milliseconds ${s.name} ${Math.max(1, Math.round(s.downAfterRealMs))}`,
              `sentinel failover-timeout ${s.name} ${Math.max(1, Math.round(s.failoverTimeoutRealMs))}`,
              // Its connections come from its own address; the others learn its front from its hellos.
              ...(front
                ? [
                    `bind-source-addr ${this.servers!.address(id)}`,
                    'sentinel announce-ip 127.0.0.1',
                    `sentinel announce-port ${front.port}`,
                  ]
                : []),
              '',
            ].join('\n'),
          );
          return startServer(this.children, [file, '--sentinel']);
        });
        front?.target(port);
        const events = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: null, retryStrategy: () => 20 });
        events.on('error', () => undefined);
        this.sentinels.set(id, { port, process, events });
        this.runIds.set((await events.call('SENTINEL', 'MYID')) as string, id);
      }),
    );
    await this.acquainted();
    const needed = Math.max(s.quorum, Math.floor(s.ids.length / 2) + 1);
    const context = {
      group: s.name,
      nodeAt: (port: number) => s.nodes[port],
      sentinelWithRunId: (runId: string) => this.runIds.get(runId),
      needed,
    };
    await Promise.all(
      [...this.sentinels].map(async ([id, sentinel]) => {
        const reader = new SentinelReader(id, context);
        sentinel.events.on('pmessage', (_pattern: string, channel: string, message: string) => {
          const at = performance.now();
          for (const report of reader.read(channel, message)) this.onEvent(report, at);
        });
        await sentinel.events.psubscribe('*');
      }),
    );
  }

  /**
   * Resolves once every sentinel counts the others and every replica: they find each other
   * through hello messages every 2 s, a period of Sentinel's own that no setting shortens.
   */
  private async acquainted(): Promise<void> {
    const { name, ids, replicas } = this.setup;
    for (let tries = 0; tries < 300; tries++) {
      const views = await Promise.all(
        [...this.sentinels.values()].map(async ({ events }) => {
          const fields = (await events.call('SENTINEL', 'MASTER', name).catch(() => [])) as string[];
          const field = (key: string) => Number(fields[fields.indexOf(key) + 1]);
          return field('num-other-sentinels') === ids.length - 1 && field('num-slaves') === replicas;
        }),
      );
      if (views.every(Boolean)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the ${ids.length} sentinels did not find each other and the ${replicas} replicas within 30 s`);
  }

  has(id: string): boolean {
    return this.sentinels.has(id);
  }

  process(id: string): ChildProcess {
    return this.sentinels.get(id)!.process;
  }

  /** The port sentinel `id` listens on (a client's link proxy to it connects there). */
  port(id: string): number {
    return this.sentinels.get(id)!.port;
  }

  /** What a client that asks Sentinel where the primary is needs. */
  wiring(): NonNullable<ClientWiring['sentinel']> {
    const { name, primary, nodes, ids } = this.setup;
    return { name, primary, nodes, ids };
  }

  /** Stops the announcement connections and removes the config files (the sentinels are Children's). */
  close(): void {
    for (const { events } of this.sentinels.values()) events.disconnect();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
