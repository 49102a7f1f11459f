import type { Socket } from 'node:net';
import { Partitions } from '../net/partitions';
import type { Scenario } from '../scenario/schema/schema';
import { startLoopbackRelay, type LoopbackRelay } from './loopbackRelay';
import { replicaLag, type NodeSetup } from './nodeSetups';
import type { RealNetwork } from './realNetwork';

/** A server's front: the address everyone else dials it at, and the port behind it (set once the server listens). */
export interface ServerFront extends LoopbackRelay {
  target(port: number): void;
}

/**
 * The network between the scenario's servers (Redis nodes and sentinels) on real processes:
 * replication lag, and partitions that cut one server off from another. A client's line to a
 * server has its own proxy (linkProxy.ts); servers dial each other at addresses they learn as
 * they go (a replica's from its primary's INFO, a sentinel's from hello messages), so no proxy
 * per pair can sit between them. Instead each server has an address of its own on loopback
 * (127.0.0.11, .12, …), which redis-server uses for every connection it opens
 * (`bind-source-addr`, Redis 7.0), and one front (a proxy) that everyone dials it at and that
 * tells who is calling by the caller's address. A connection from 127.0.0.1 (the harness, or a
 * client's link proxy) is outside the scenario's network and passes untouched.
 *
 * A partition holds what crosses it, as TCP does, rather than dropping it as a client's link
 * proxy does: a replication stream or a sentinel's queue of pending replies cut in the middle of
 * a message would be garbage, where TCP would have sent it again after the heal. A connection
 * opens even across a cut (loopback answers at once) and carries nothing until the heal.
 *
 * A replica's lag waits on its primary's side, as `ReplicationPrimary.ship` has it in the
 * simulator: what the front of the replica's configured primary sends that replica comes its lag
 * later, in order, and what it still holds when the primary dies is dropped, which is the window
 * lesson 9's failover loses a lock in. A replica re-pointed at another node follows it at once.
 * Everyone dials the same front, so Sentinel sees each replica follow the very address it
 * monitors; a proxy beside the replica instead would have Sentinel re-point it past the lag once
 * `failover-timeout` had passed (`+fix-slave-config`).
 */
export class ServerNetwork {
  private readonly addresses = new Map<string, string>();
  private readonly byAddress = new Map<string, string>();
  private readonly fronts: ServerFront[] = [];
  /** Every connection's two directions, flushed when a partition heals. */
  private readonly lanes = new Set<HeldLane>();

  constructor(
    servers: readonly string[],
    /** The scenario's partitions as the script moves them; null when none cut a server off. */
    private readonly network: RealNetwork | null,
    /** The lag (real ms) on what `primary` sends `replica`: its configured primary's link, else 0. */
    private readonly lagRealMs: (primary: string, replica: string) => number,
  ) {
    network?.onChange(() => this.lanes.forEach((lane) => lane.flush()));
    servers.forEach((id, i) => {
      const address = `127.0.0.${11 + i}`;
      this.addresses.set(id, address);
      this.byAddress.set(address, id);
    });
  }

  /** The loopback address server `id`'s own connections come from (`bind-source-addr`). */
  address(id: string): string {
    return this.addresses.get(id)!;
  }

  /** A front for server `id`: listening now on a free loopback port, passing connections on once `target` is told. */
  async front(id: string): Promise<ServerFront> {
    let targetPort = 0;
    const lanes = this.lanes;
    const relay = await startLoopbackRelay(
      () => targetPort,
      (downstream, upstream) => {
        const caller = this.byAddress.get(downstream.remoteAddress ?? '') ?? null;
        const cut = (from: string | null, to: string | null) =>
          from !== null && to !== null && this.network !== null && this.network.cut(from, to);
        const up = new HeldLane(upstream, () => cut(caller, id));
        const down = new HeldLane(downstream, () => cut(id, caller));
        const lagMs = caller === null ? 0 : this.lagRealMs(id, caller);
        downstream.on('data', (chunk: Buffer) => up.send(chunk, 0));
        upstream.on('data', (chunk: Buffer) => down.send(chunk, lagMs));
        downstream.once('close', () => up.end(false));
        // A server that dies takes with it what its lag still held; what a cut holds is on the wire.
        upstream.once('close', () => down.end(true));
        for (const lane of [up, down]) {
          lanes.add(lane);
          lane.onDone = () => lanes.delete(lane);
        }
      },
      () => lanes.forEach((lane) => lane.stop()),
    );
    const front: ServerFront = { ...relay, target: (port) => (targetPort = port) };
    this.fronts.push(front);
    return front;
  }

  close(): void {
    for (const front of this.fronts) front.close();
  }
}

/**
 * One direction of one connection through a front. Each chunk is due when its lag has passed
 * (never before the chunk sent before it) and goes on when due unless the link is cut; then it
 * and everything after it wait for the heal. The end of the stream is one more item in line.
 */
class HeldLane {
  private readonly queue: { due: number; item: Buffer | 'end' }[] = [];
  private timer: NodeJS.Timeout | undefined;
  onDone: () => void = () => undefined;

  constructor(
    private readonly to: Socket,
    private readonly cut: () => boolean,
  ) {}

  send(item: Buffer | 'end', lagMs: number): void {
    const due = Math.max(performance.now() + lagMs, this.queue.at(-1)?.due ?? 0);
    this.queue.push({ due, item });
    this.flush();
  }

  /** Ends the stream after what is in line; `dropLagging`: what has not waited out its lag yet is lost. */
  end(dropLagging: boolean): void {
    const now = performance.now();
    const lagging = this.queue.findIndex((q) => q.due > now);
    if (dropLagging && lagging >= 0) this.queue.length = lagging;
    this.send('end', 0);
  }

  /** Passes on whatever is due while the link is not cut (the network calls it at every change). */
  flush(): void {
    clearTimeout(this.timer);
    const now = performance.now();
    while (this.queue.length > 0 && this.queue[0]!.due <= now && !this.cut()) {
      const { item } = this.queue.shift()!;
      if (item !== 'end') {
        if (this.to.writable) this.to.write(item);
        continue;
      }
      this.to.end();
      this.onDone();
    }
    const head = this.queue[0];
    if (head && head.due > now) this.timer = setTimeout(() => this.flush(), head.due - now);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.queue.length = 0;
  }
}

/**
 * The servers' network the scenario needs (null: none, every server dialled directly): when a
 * replica has a lag, or a partition cuts one server off from another (from the start or by the
 * script). Its servers are the scenario's Redis nodes, then its sentinels.
 */
export function serverNetworkFor(
  scenario: Scenario,
  sentinelIds: readonly string[],
  network: RealNetwork | null,
  setups: readonly NodeSetup[],
): ServerNetwork | null {
  const servers = [...scenario.redis.nodes.map((n) => n.id), ...sentinelIds];
  const partitions = [
    ...scenario.network.partitions,
    ...scenario.script.flatMap((s) => (s.do === 'partition' ? [s] : [])),
  ];
  const cutsServers = partitions.some((p) => {
    const cuts = new Partitions();
    cuts.split(p.groups, p.oneWay);
    return servers.some((a) => servers.some((b) => cuts.blocks(a, b)));
  });
  const staged = cutsServers || scenario.redis.nodes.some((n) => n.lag > 0);
  return staged ? new ServerNetwork(servers, cutsServers ? network : null, replicaLag(setups)) : null;
}
