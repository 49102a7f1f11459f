import type { ChildProcess } from 'node:child_process';
import type { Children } from './children';
import { fakeClock } from './fakeClock';
import { LeaseWatcher, type LeaseChange } from './leaseWatcher';
import { freePort, startRedis } from './redisServer';

interface RealNode {
  port: number;
  process: ChildProcess;
  /** Its wall clock under libfaketime, when the script steps it; the offset so far in real ms. */
  clock: ReturnType<typeof fakeClock> | undefined;
  clockOffsetRealMs: number;
  watcher: LeaseWatcher;
}

/**
 * The scenario's Redis nodes as real redis-servers, each independent of the others (one, or
 * Redlock's N masters), each on its own free loopback port and watched by its own LeaseWatcher,
 * so every lease in the trace is one node's, as in the simulator. They start side by side. A
 * node whose clock the script steps runs under libfaketime, with its own control file.
 */
export class RedisNodes {
  private readonly nodes = new Map<string, RealNode>();
  /** Every libfaketime control file made, so close() removes each whatever failed after it. */
  private readonly clocks: ReturnType<typeof fakeClock>[] = [];

  constructor(
    private readonly children: Children,
    private readonly ids: readonly string[],
    /** The nodes whose wall clock the script steps. */
    private readonly jumped: ReadonlySet<string>,
    private readonly keys: ReadonlySet<string>,
    /** A lease change on node `id`, timed on the harness's monotonic clock. */
    private readonly onChange: (id: string, change: LeaseChange, atReal: number) => void,
  ) {}

  /** Starts every node at once and resolves when each accepts connections and its watcher hears it. */
  async start(): Promise<void> {
    await Promise.all(
      this.ids.map(async (id) => {
        const clock = this.jumped.has(id) ? fakeClock() : undefined;
        if (clock) this.clocks.push(clock);
        const { port, process } = await this.serverOnFreePort(clock?.env);
        // The watcher connects only once its server listens: one retrying a port nobody holds
        // yet can land on another harness's free-port probe of that same port.
        const watcher = new LeaseWatcher(
          port,
          this.keys,
          () => performance.now(),
          (change, at) => this.onChange(id, change, at),
        );
        this.nodes.set(id, { port, process, clock, clockOffsetRealMs: 0, watcher });
        await watcher.start();
      }),
    );
  }

  /**
   * A redis-server on a port the OS called free. Another harness running beside this one may
   * have been handed the same port and bound it first; then this server cannot listen, and
   * another port is tried.
   */
  private async serverOnFreePort(env: NodeJS.ProcessEnv | undefined): Promise<{ port: number; process: ChildProcess }> {
    for (let tries = 1; ; tries++) {
      const port = await freePort();
      try {
        return { port, process: await startRedis(this.children, port, env) };
      } catch (error) {
        if (tries >= 5 || !/Address already in use/.test((error as Error).message)) throw error;
      }
    }
  }

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  port(id: string): number {
    return this.nodes.get(id)!.port;
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

  /** A new redis-server on the same port (and clock), empty. */
  async restart(id: string): Promise<void> {
    const node = this.nodes.get(id)!;
    node.process = await startRedis(this.children, node.port, node.clock?.env);
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

  /** Stops the watchers' connections and removes the clocks' control files (the servers are Children's). */
  close(): void {
    for (const node of this.nodes.values()) node.watcher.stop();
    for (const clock of this.clocks) clock.remove();
  }
}
