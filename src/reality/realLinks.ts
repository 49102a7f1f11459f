import type { LinkFaults } from '../net/faults';
import { Partitions } from '../net/partitions';
import type { Scenario } from '../scenario/schema/schema';
import { toAction } from '../scenario/schema/scriptActions';
import type { TraceEventMap } from '../sim/traceEvents';
import { startLinkProxy, type Drop } from './linkProxy';
import { RealNetwork } from './realNetwork';

/** A trace event the harness records for the network, timed on its monotonic clock. */
type NetKind = 'net.send' | 'net.deliver' | 'net.drop' | 'net.partition' | 'net.heal';
type NetRecord = { [K in NetKind]: { kind: K; actor: string; data: TraceEventMap[K]; atReal: number } }[NetKind];

/** A message a client reported sending, as the harness recorded it (in arrival order). */
interface Sent {
  kind: string;
  actor: string;
  data: unknown;
}

/**
 * The scenario's network between real processes: a link proxy (linkProxy.ts) for each client ↔
 * node pair and each client ↔ resource pair, all drawing on one RealNetwork, which the script's
 * `network`, `partition` and `heal` steps change as the run goes. Only a pair the scenario's
 * network touches gets a proxy (a latency or loss everywhere, a link or step naming the pair, a
 * partition that cuts it); the others connect directly, as loopback's ~0 ms is the closest real
 * thing to the simulator's default 1–3 ms. A proxy runs in the harness's process, so each
 * message through it waits for that process to be scheduled too: on a loaded machine that is
 * milliseconds per hop, which a 50 ms Redlock instance timeout at half speed cannot spare, so no
 * pair pays for it without a reason.
 */
export class RealLinks {
  /** The scenario's links and partitions, as the script changes them (null: it stages no network). */
  readonly network: RealNetwork | null;
  private readonly closers: (() => void)[] = [];
  private readonly drops: Drop[] = [];
  /** Messages on their way through a proxy: the run is not over while one may still arrive. */
  private inFlight = 0;
  /** Called when the last message in flight has arrived or been dropped. */
  onIdle: () => void = () => undefined;

  constructor(
    private readonly scenario: Scenario,
    network: ConstructorParameters<typeof RealNetwork>[1],
    private readonly scale: number,
  ) {
    const n = scenario.network;
    const staged =
      n.latency !== undefined ||
      n.loss !== undefined ||
      n.links.length > 0 ||
      n.partitions.length > 0 ||
      scenario.script.some((s) => s.do === 'network' || s.do === 'partition' || s.do === 'heal');
    this.network = staged ? new RealNetwork(scenario.seed, network) : null;
  }

  /** True when the scenario's network may ever do something to messages between `a` and `b`. */
  private touches(a: string, b: string): boolean {
    const n = this.scenario.network;
    if (n.latency !== undefined || (n.loss ?? 0) > 0) return true;
    const pair = (from?: string, to?: string) => (from === a && to === b) || (from === b && to === a);
    const steps = this.scenario.script;
    if (n.links.some((l) => pair(l.from, l.to))) return true;
    if (steps.some((s) => s.do === 'network' && (s.from === undefined || pair(s.from, s.to)))) return true;
    return [...n.partitions, ...steps.flatMap((s) => (s.do === 'partition' ? [s] : []))].some((p) => {
      const cuts = new Partitions();
      cuts.split(p.groups, p.oneWay);
      return cuts.blocks(a, b) || cuts.blocks(b, a);
    });
  }

  /** The port `client` reaches `node` at (listening on `port`): a proxy's, or the port itself. */
  async port(client: string, node: string, port: number, resp: boolean): Promise<number> {
    if (!this.network || !this.touches(client, node)) return port;
    const proxy = await startLinkProxy({
      targetPort: port,
      client,
      node,
      network: this.network,
      scale: this.scale,
      resp,
      onDrop: (drop) => this.drops.push(drop),
      inFlight: (change) => {
        this.inFlight += change;
        if (this.inFlight === 0) this.onIdle();
      },
    });
    this.closers.push(proxy.close);
    return proxy.port;
  }

  /**
   * True when no message is on its way: in the simulator a message in flight is an event still
   * to come, so a run is not idle before it arrives (a write slowed 12 s lands after its
   * writer has gone, and counts).
   */
  get idle(): boolean {
    return this.inFlight === 0;
  }

  /** Partitions in place from the start, cut before any message is sent; their trace events at `atReal` (the run's start). */
  start(atReal: number): NetRecord[] {
    return this.scenario.network.partitions.map((p) => this.apply({ do: 'partition', ...p }, atReal)!);
  }

  /** Carries out a script step if it is the network's (`network`, `partition`, `heal`); what to record, or null. */
  apply(step: { do: string }, atReal = performance.now()): NetRecord | null {
    const network = this.network;
    if (!network) return null;
    const s = step as Scenario['script'][number];
    switch (s.do) {
      case 'partition':
        network.partition(s.groups, s.oneWay);
        return { kind: 'net.partition', actor: 'network', data: { groups: s.groups, oneWay: s.oneWay }, atReal };
      case 'heal':
        network.heal();
        return { kind: 'net.heal', actor: 'network', data: {}, atReal };
      case 'network': {
        const { do: _, from, to, ...faults } = toAction(s) as { do: 'network'; from?: string; to?: string };
        network.setFaults(
          faults as Partial<LinkFaults>,
          from !== undefined && to !== undefined ? { from, to } : undefined,
        );
        return null;
      }
      default:
        return null;
    }
  }

  /**
   * The trace events of the messages the proxies dropped. A proxy knows a message by its place on
   * its link (the n-th command from A to r1); the client reported it with its own number and
   * label, in the same order, so the n-th `net.send` from A to r1 it recorded is that message. A
   * dropped command is a `net.drop` at the node; a dropped reply was sent (Redis answered, so
   * the command had arrived) under a number of its own (`numbers.fresh`) and is dropped at the client,
   * as the simulator records both.
   */
  dropRecords(recorded: readonly Sent[], numbers: { fresh(): number }): NetRecord[] {
    const sends = new Map<string, { msg: number; label: string }[]>();
    for (const e of recorded) {
      if (e.kind !== 'net.send') continue;
      const data = e.data as TraceEventMap['net.send'];
      const slot = `${e.actor}->${data.to}`;
      const onLink = sends.get(slot) ?? [];
      onLink.push({ msg: data.msg, label: data.label });
      sends.set(slot, onLink);
    }
    return this.drops.flatMap((d): NetRecord[] => {
      const [client, node] = d.reply ? [d.to, d.from] : [d.from, d.to];
      const command = sends.get(`${client}->${node}`)?.[d.seq - 1];
      // A drop on the resource's line, or a frame the client never reported, is nobody's message.
      if (!command || d.seq === 0) return [];
      const label = d.reply ? 'reply' : command.label;
      const dropped: NetRecord = {
        kind: 'net.drop',
        actor: d.to,
        data: { msg: command.msg, to: d.to, label, reason: d.reason },
        atReal: d.atReal,
      };
      if (!d.reply) return [dropped];
      const reply = numbers.fresh();
      return [
        {
          kind: 'net.deliver',
          actor: d.from,
          data: { msg: command.msg, from: d.to, label: command.label },
          atReal: d.sentAtReal,
        },
        { kind: 'net.send', actor: d.from, data: { msg: reply, to: d.to, label }, atReal: d.sentAtReal },
        { ...dropped, data: { ...dropped.data, msg: reply } },
      ];
    });
  }

  close(): void {
    for (const close of this.closers) close();
  }
}
