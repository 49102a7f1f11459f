import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { actorInfos } from '../actors/world';
import { worldSpec } from '../scenario/running/build';
import type { Scenario } from '../scenario/schema/schema';
import { toAction } from '../scenario/schema/scriptActions';
import { describeAction } from '../scenario/text/describeAction';
import type { TraceEvent, TraceEventMap, TraceKind } from '../sim/traceEvents';
import { childBundles } from './bundles';
import { typeAtConsole } from './consoleCommand';
import { startResourceChild, type ResourceChild } from './resourceChild';
import { Children } from './children';
import type { ClientConfig, Go, Ready, Stamped } from './protocol';
import { clientConfig, type ClientWiring } from './clientConfig';
import { MessageNumbers } from './messageNumbers';
import { nodeSetups, topologyAtStart } from './nodeSetups';
import { RealLinks } from './realLinks';
import { RedisNodes } from './redisNodes';
import { RealLockServices } from './lockServices';
import type { LeaseChange } from './leaseWatcher';
import { sentinelSetup, Sentinels } from './sentinels';
import { serverNetworkFor, type ServerNetwork } from './serverNetwork';
import { sharedNowMs, toLocalMs } from './sharedClock';
import { scaleProblems, UnsupportedScenario, unsupportedParts } from './support';

export interface RealityOptions {
  /** Real seconds per scenario second: every duration and TTL is multiplied by it. */
  scale: number;
  /** Remove the resource's fencing check on the real side only (to show a difference is caught). */
  breakFencing?: boolean;
  /** The script's steps that are a learner's actions (`--actions`), recorded as the learner's. */
  learnerSteps?: ReadonlySet<Scenario['script'][number]>;
}

export interface RealRun {
  /** The recorded trace, in the simulator's event kinds, timed in scenario milliseconds. */
  trace: TraceEvent[];
  /** How the run ended: everyone finished (idle), or the horizon came first. */
  ended: 'idle' | 'time-cap';
  /** Wall-clock milliseconds the run took, processes' start and stop included. */
  wallMs: number;
  /**
   * How late, at worst, the harness applied a step of the script (a pause, its resume, a crash),
   * in scenario milliseconds: its timers fire late on a busy machine. A fault that lands later
   * than the scenario's margin around it may let a process act before it, and then the real run
   * is not the scenario's run (realityCheck reruns it).
   */
  scheduleSlipMs: number;
  /** What the run still waited for when the horizon came (clients, script steps, messages); null when it ended idle. */
  unfinished: string | null;
}

type Pending = { at: number; kind: TraceKind; actor: string; data: unknown };

/** How far ahead of `go` scenario time starts, in real ms (see RealRunner.run). */
const START_LEAD_MS = 50;

/**
 * Runs `scenario` on real processes: one redis-server per Redis node (independent masters, or a
 * primary and its replicas), one `redis-server --sentinel` per sentinel, one Node process per
 * lock client (ioredis), the resource as an HTTP service, and the script's
 * faults as signals (pause is SIGSTOP/SIGCONT, crash SIGKILL, a Redis restart a new
 * redis-server on the same port). Every event is timed on this process's monotonic clock (a
 * child's report at the moment its sender stamped it) and mapped back to scenario time (divided
 * by the scale). Every process started is killed before this returns
 * or throws, and on SIGINT/SIGTERM.
 */
export async function runReality(scenario: Scenario, options: RealityOptions): Promise<RealRun> {
  const reasons = [...unsupportedParts(scenario), ...scaleProblems(scenario, options.scale)];
  if (reasons.length) throw new UnsupportedScenario(reasons);
  const wallStart = performance.now();
  const children = new Children();
  const onSignal = (signal: NodeJS.Signals) => {
    children.stopAll();
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const runner = new RealRunner(scenario, options, children);
    const run = await runner.run().finally(() => runner.close());
    return { ...run, wallMs: performance.now() - wallStart };
  } finally {
    children.stopAll();
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
}

class RealRunner {
  private readonly spec;
  private readonly lockKeys: ReadonlySet<string>;
  private readonly events: Pending[] = [];
  private t0 = Infinity;
  private resource!: ResourceChild;
  private nodes: RedisNodes | undefined;
  /** The console commands typed so far: each waits for the one before it (see console). */
  private consoleTyping: Promise<void> = Promise.resolve();
  private sentinels: Sentinels | undefined;
  private servers: ServerNetwork | null = null;
  private services: RealLockServices | undefined;
  /** The scenario's network: the link proxies between each client and each node its faults touch. */
  private readonly links: RealLinks;
  /** The ports of each Redis node and of the resource, as they listen. */
  private readonly ports = new Map<string, number>();
  private readonly clients = new Map<string, ChildProcess>();
  private readonly configs = new Map<string, ClientConfig>();
  /** Clients still running their jobs (not finished, crashed or given up). */
  private readonly running = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private scriptLeft = 0;
  /** The latest a script step's timer fired, in real ms past its moment. */
  private slipRealMs = 0;
  private wake: () => void = () => undefined;
  private unfinished: string | null = null;
  /** Every message of the run numbered once, as the simulator numbers them (messageNumbers.ts). */
  private readonly messages = new MessageNumbers();

  constructor(
    private readonly scenario: Scenario,
    private readonly options: RealityOptions,
    private readonly children: Children,
  ) {
    this.spec = worldSpec(scenario);
    this.lockKeys = new Set(this.spec.clients.flatMap((c) => c.keys));
    this.links = new RealLinks(scenario, this.spec.network, options.scale);
    this.links.onIdle = () => this.wake();
  }

  private real = (scenarioMs: number) => Math.round(scenarioMs * this.options.scale);
  /** Scenario milliseconds (whole, as the simulator counts them) since the run began. */
  private sinceStart = (atReal: number) => Math.round((atReal - this.t0) / this.options.scale);
  private record<K extends TraceKind>(
    kind: K,
    actor: string,
    data: TraceEventMap[K],
    atReal = performance.now(),
  ): void {
    if (atReal >= this.t0) this.events.push({ at: this.sinceStart(atReal), kind, actor, data });
  }

  async run(): Promise<Omit<RealRun, 'wallMs'>> {
    const bundles = await childBundles();
    const jumped = new Set(this.scenario.script.flatMap((step) => (step.do === 'clock-jump' ? [step.target] : [])));
    const setups = nodeSetups(this.scenario, this.options.scale);
    const sentinelIds = this.spec.topology?.sentinels?.ids ?? [];
    this.servers = serverNetworkFor(this.scenario, sentinelIds, this.links.network, setups);
    this.nodes = new RedisNodes(
      this.children,
      setups,
      jumped,
      this.lockKeys,
      this.recordLease,
      this.options.scale,
      this.servers,
    );
    const [resourcePort] = await Promise.all([
      startResourceChild(this.children, bundles.resource, this.spec.resource, this.options.breakFencing ?? false, (m) =>
        this.record(m.kind, m.actor, m.data as never, this.childMoment(m.atSharedMs)),
      ).then((resource) => ((this.resource = resource), resource.port)),
      this.nodes.start().then(() => this.startSentinels()),
      RealLockServices.start(this.children, this.scenario, this.lockKeys, jumped, this.recordLease).then(
        (services) => (this.services = services),
      ),
    ]);
    this.ports.set(this.spec.resource.id, resourcePort);
    for (const { id } of this.spec.redisNodes) this.ports.set(id, this.nodes.port(id));
    for (const id of sentinelIds) this.ports.set(id, this.sentinels!.port(id));
    const wiring: ClientWiring = {
      scale: this.options.scale,
      port: (from, to, resp) => this.links.port(from, to, this.ports.get(to)!, resp),
      sentinel: this.sentinels?.wiring() ?? null,
      ...this.services!.wiring(),
    };
    const configs = await Promise.all(this.spec.clients.map((c) => clientConfig(this.scenario, this.spec, c, wiring)));
    await Promise.all(configs.map((c) => this.startClient(bundles.lockClient, c)));

    // Scenario time starts a little ahead, so every process starts on its own timer at its
    // `startAt`, not when `go` reaches it: with `go` at time 0, on a loaded machine running five
    // runs at once the message came 16 ms late, and clients meant to start 2.5 real ms apart
    // started together, in another order.
    this.t0 = performance.now() + START_LEAD_MS;
    const { id: scenario, seed } = this.scenario;
    this.record('run.start', 'world', { scenario, seed, actors: actorInfos(this.spec) }, this.t0);
    for (const r of this.links.start(this.t0)) this.record(r.kind, r.actor, r.data as never, r.atReal);
    for (const e of topologyAtStart(this.scenario, this.spec)) this.record(e.kind, e.actor, e.data, this.t0);
    for (const client of this.clients.values()) client.send(this.go());
    for (const step of this.scenario.script) this.after(step.at, () => this.apply(step));
    this.scriptLeft = this.scenario.script.length;
    const ended = await this.finished();
    // The resource's last reports may still be on their way (its channel is not the clients').
    await this.resource.flush();
    for (const r of this.links.dropRecords(this.events, this.messages))
      this.record(r.kind, r.actor, r.data as never, r.atReal);
    this.record('run.end', 'world', { reason: ended });
    for (const t of this.timers) clearTimeout(t);
    await Promise.all([this.nodes.settled(), this.services!.settled()]);
    const trace = this.events
      .map((e, order) => ({ e, order }))
      .sort((a, b) => a.e.at - b.e.at || a.order - b.order)
      .map(({ e }, id) => ({ id, ...e }) as TraceEvent);
    return { trace, ended, scheduleSlipMs: this.slipRealMs / this.options.scale, unfinished: this.unfinished };
  }

  /**
   * When a child's report happened, on this process's line: its stamp, never before the start. A
   * client's start timer can fire a fraction of a ms early (libuv counts whole ms), and its first
   * step, reported before this process's clock reached the start, was once dropped so (lesson
   * 15's A, in CI). Before the start (t0 unset) the stamp stands and record() keeps nothing.
   */
  private childMoment(sharedMs: number): number {
    return Math.max(toLocalMs(sharedMs), Number.isFinite(this.t0) ? this.t0 : -Infinity);
  }

  private go(): Go {
    return { go: true, startSharedMs: sharedNowMs() - performance.now() + this.t0 };
  }

  /** Stops what lives in this process: the lease watchers' connections, the clocks' files and the proxies. */
  close(): void {
    this.nodes?.close();
    this.servers?.close();
    this.links.close();
    this.sentinels?.close();
    this.services?.close();
  }

  /** A lease as the server that keeps it reported it (its deadline is the server's own affair). */
  private readonly recordLease = (server: string, { kind, ...data }: LeaseChange, at: number): void =>
    this.record(kind, server, { ...data, ...(kind === 'lease.granted' ? { expiresAtMs: null } : {}) } as never, at);

  /** The scenario's sentinels, once its nodes are up (none without Sentinel). */
  private async startSentinels(): Promise<void> {
    const setup = sentinelSetup(this.spec, this.scenario, this.nodes!, this.options.scale);
    if (!setup) return;
    this.sentinels = new Sentinels(this.children, setup, this.servers, (report, at) =>
      this.record(report.kind, report.actor, report.data as never, at),
    );
    await this.sentinels.start();
  }

  /** Resolves when every client is done and the script has run out (idle), or at the horizon. */
  private finished(): Promise<'idle' | 'time-cap'> {
    return new Promise((resolve) => {
      const atHorizon = () => {
        const left = [...this.running].map((id) => `${id} still running`);
        if (this.scriptLeft > 0) left.push(`${this.scriptLeft} script step(s) not done`);
        if (!this.links.idle) left.push('a message in a link proxy');
        this.unfinished = left.join(', ');
        resolve('time-cap');
      };
      const horizon = setTimeout(atHorizon, this.t0 + this.real(this.scenario.horizon) - performance.now());
      this.wake = () => {
        if (this.running.size > 0 || this.scriptLeft > 0 || !this.links.idle) return;
        clearTimeout(horizon);
        resolve('idle');
      };
    });
  }

  private after(scenarioMs: number, act: () => void | Promise<void>): void {
    const due = this.t0 + this.real(scenarioMs);
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.slipRealMs = Math.max(this.slipRealMs, performance.now() - due);
        void act();
      },
      Math.max(0, due - performance.now()),
    );
    this.timers.add(timer);
  }

  private async apply(step: Scenario['script'][number]): Promise<void> {
    const target = 'target' in step ? step.target : 'network';
    const detail = describeAction(toAction(step));
    const source = this.options.learnerSteps?.has(step) ? 'learner' : 'script';
    this.record('action.apply', target, { action: step.do, source, detail });
    const nodes = this.nodes!;
    const process = this.processOf(target);
    switch (step.do) {
      case 'pause':
        if (process) this.children.signal(process, 'SIGSTOP');
        this.record('process.pause', target, { forMs: step.for ?? null });
        if (step.for !== undefined) {
          this.scriptLeft++;
          this.after(step.at + step.for, () => this.resume(target));
        }
        break;
      case 'resume':
        this.resume(target, false);
        break;
      case 'crash':
        if (nodes.has(target)) nodes.crash(target);
        else if (process) this.children.signal(process, 'SIGKILL');
        this.record('process.crash', target, {});
        if (!nodes.has(target)) this.finishedClient(target);
        break;
      case 'power-loss':
        // Without persistence a power loss is a crash: the node keeps nothing either way; with
        // `appendfsync always` (support.ts) it keeps every write it answered either way.
        this.record('process.power-loss', target, {});
        nodes.crash(target);
        this.record('process.crash', target, {});
        break;
      case 'restart':
        await this.restart(target);
        break;
      case 'command':
        // One after another, in the script's order, as the simulator answers them.
        await (this.consoleTyping = this.consoleTyping.then(() => this.console(target, step.argv)));
        break;
      case 'clock-jump':
        // Redis keeps a key's expiry as a moment on its wall clock: stepping that clock (scaled
        // as every duration is) moves every deadline's distance at once, as in the simulator.
        // A database's now() too (postgres.ts).
        this.record('clock.jump', target, { byMs: step.by });
        if (this.services!.has(target)) await this.services!.jumpClock(step.by * this.options.scale);
        else nodes.jumpClock(target, step.by * this.options.scale);
        break;
      default: {
        // `network`, `partition` and `heal` change what the link proxies do from now on.
        const change = this.links.apply(step);
        if (change) this.record(change.kind, change.actor, change.data as never, change.atReal);
      }
    }
    this.scriptLeft--;
    this.wake();
  }

  /** A command typed at node `target`'s console, recorded as the node's `redis.command` from `console`. */
  private async console(target: string, argv: string[]): Promise<void> {
    const reply = await typeAtConsole(this.nodes!.port(target), argv);
    if (reply !== null) this.record('redis.command', target, { msg: -1, from: 'console', argv, reply });
  }

  private resume(target: string, scheduled = true): void {
    const process = this.processOf(target);
    if (process) this.children.signal(process, 'SIGCONT');
    this.record('process.resume', target, {});
    if (scheduled) {
      this.scriptLeft--;
      this.wake();
    }
  }

  /** The real process behind a scenario actor: a Redis node, a sentinel, the lease service or a client. */
  private processOf(id: string): ChildProcess | undefined {
    if (this.nodes!.has(id)) return this.nodes!.process(id);
    if (this.services!.has(id)) return this.services!.process(id);
    return this.sentinels?.has(id) ? this.sentinels.process(id) : this.clients.get(id);
  }

  private async restart(target: string): Promise<void> {
    if (this.nodes!.has(target)) {
      await this.nodes!.restart(target);
    } else if (this.services!.has(target)) {
      await this.services!.restart();
    } else {
      const config = this.configs.get(target)!;
      const bundles = await childBundles();
      // A restarted client starts over at once, with a new lock value.
      await this.startClient(bundles.lockClient, {
        ...config,
        startAtRealMs: 0,
        value: `${target}-${randomBytes(4).toString('hex')}`,
      });
      this.clients.get(target)!.send({ go: true, startSharedMs: sharedNowMs() } satisfies Go);
    }
    this.record('process.restart', target, {});
  }

  private finishedClient(id: string): void {
    this.running.delete(id);
    this.wake();
  }

  private startClient(bundle: string, config: ClientConfig): Promise<void> {
    const child = this.children.start(process.execPath, [bundle, JSON.stringify(config)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.clients.set(config.id, child);
    this.configs.set(config.id, config);
    this.running.add(config.id);
    child.on('message', (m: Stamped | Ready) => {
      if (!('kind' in m)) return;
      const at = this.childMoment(m.atSharedMs);
      for (const r of this.messages.of(config.id, m)) this.record(r.kind, r.actor, r.data as never, at);
    });
    // A client that ends (done, gave up, lost its lock) or is killed is no longer running. Its
    // channel closes after the last report it sent has arrived.
    child.once('disconnect', () => {
      if (this.clients.get(config.id) === child) this.finishedClient(config.id);
    });
    return new Promise((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`lock client ${config.id} exited (${code}) before it was ready`)));
    });
  }
}
