import type { Owner } from '../sim/kernel';
import type { Prng } from '../sim/prng';
import type { Sim } from '../sim/sim';
import { actorOf, numberOf, TraceCodec, withActor, type Trace, type TraceTag } from '../sim/trace';
import type { TraceKind } from '../sim/traceEvents';
import { DEFAULT_FAULTS, drawLatencyMs, type LinkFaults } from './faults';
import { Partitions } from './partitions';

/** The network's knobs: faults for every link, and overrides for some directed links. */
export interface NetworkOptions {
  defaults: LinkFaults;
  /** Per-link overrides; `from`/`to` are process ids. Later entries win. */
  links: readonly LinkOverride[];
}

/**
 * A directed link's name: its random stream is forked under it, so what happens on the link
 * depends only on the seed and this name (the reality check's proxies draw from it too).
 */
export function linkName(from: string, to: string): string {
  return `net:${from}->${to}`;
}

/** The faults on the link `name`: the defaults, with each override for that link applied in order. */
export function faultsOnLink(options: NetworkOptions, name: string): LinkFaults {
  let faults = options.defaults;
  for (const o of options.links) if (name === linkName(o.from, o.to)) faults = { ...faults, ...o.faults };
  return faults;
}

export interface LinkOverride {
  from: string;
  to: string;
  faults: Partial<LinkFaults>;
}

/** Where a message goes: the receiving process's id and its current life (see Process.owner). */
export interface Endpoint {
  readonly id: string;
  readonly owner: Owner;
}

interface Link {
  random: Prng;
  faults: LinkFaults;
  /** The trace's numbers for this link's sends and deliveries, worked out once (see MessageCodec). */
  sendTag: TraceTag<'net.send'>;
  deliverTag: TraceTag<'net.deliver'>;
  /** The receiver's actor id, as a sent message's trace number carries it; the sender's, for a delivery. */
  toPeer: number;
  fromPeer: number;
}

/**
 * A message's label: the text itself, or something that builds it when the trace is read (a
 * command line or a formatted reply is only ever looked at for a few of the messages). The
 * trace keeps every message's label source, so a hot sender shares one between messages with
 * the same text, and a label source should build its text once and keep it.
 */
export type MessageLabel = string | LabelSource;

export interface LabelSource {
  label(): string;
}

const labelText = (label: MessageLabel): string => (typeof label === 'string' ? label : label.label());

/**
 * How `net.send` and `net.deliver` events are kept in the trace: the message id and the other
 * end's actor id packed in one number, and the label source as it was given. Nothing per
 * message is kept alive by the trace, which is most of what a contended run records.
 */
class MessageCodec extends TraceCodec {
  decode(kind: TraceKind, num: number, ref: unknown, trace: Trace): unknown {
    const msg = numberOf(num);
    const peer = trace.actorName(actorOf(num));
    const label = labelText(ref as MessageLabel);
    return kind === 'net.deliver' ? { msg, from: peer, label } : { msg, to: peer, label };
  }
}

const MESSAGE = new MessageCodec();

/** One message on the wire (a duplicate travels as a second one with the same id). */
class Flight {
  constructor(
    readonly msg: number,
    readonly from: string,
    readonly to: Endpoint,
    readonly link: Link,
    readonly label: MessageLabel,
    readonly deliver: (arg: never) => void,
    readonly arg: unknown,
    /** Why it will not arrive, decided when it was sent; null while it still may. */
    readonly fate: 'loss' | 'partition' | null,
  ) {}

  /** A copy sent again under the same id (duplication). */
  copy(fate: 'partition' | null): Flight {
    return new Flight(this.msg, this.from, this.to, this.link, this.label, this.deliver, this.arg, fate);
  }
}

/**
 * Carries messages between processes. Each directed link draws its delays and faults from its
 * own random stream: what happens on A→r1 depends only on the seed and that link's name, so
 * adding a client elsewhere never changes it. Delivery is scheduled for the receiver, so a paused
 * receiver holds the message until it resumes and a crashed one loses it (recorded as a drop).
 *
 * Per message, the link draws in a fixed order: loss, delay, reorder, duplicate (and the copy's
 * delay). A knob at zero draws nothing, so turning on loss does not shift the delays of a run
 * without loss... but it does change every later draw on that link, as it should.
 */
export class Network {
  private nextMsg = 1;
  private readonly links = new Map<string, Link>();
  private readonly linksFrom = new Map<string, Map<string, Link>>();
  readonly partitions = new Partitions();
  private options: NetworkOptions;
  // Kernel callbacks shared by every message (a closure per message was a measurable cost).
  private readonly arrive = (flight: Flight): void => this.arrived(flight);
  private readonly recordLoss = (flight: Flight): void => this.dropped(flight, flight.fate!);
  private readonly recordCrashed = (flight: Flight): void => this.dropped(flight, 'crashed');

  constructor(
    private readonly sim: Sim,
    options: NetworkOptions = { defaults: DEFAULT_FAULTS, links: [] },
  ) {
    this.options = options;
  }

  /** Changes the faults on every link, or on one directed link (learner's "network weather"). */
  setFaults(faults: Partial<LinkFaults>, link?: { from: string; to: string }): void {
    this.options = link
      ? { ...this.options, links: [...this.options.links, { ...link, faults }] }
      : { defaults: { ...this.options.defaults, ...faults }, links: this.options.links };
    for (const [name, l] of this.links) l.faults = faultsOnLink(this.options, name);
  }

  /** Cuts links between groups (see Partitions) and records it. */
  partition(groups: string[][], oneWay: boolean): void {
    this.partitions.split(groups, oneWay);
    this.sim.record('net.partition', 'network', { groups, oneWay });
  }

  heal(): void {
    this.partitions.heal();
    this.sim.record('net.heal', 'network', {});
  }

  /**
   * Sends a message; `deliver(arg)` runs at the receiver when (and each time) it arrives.
   * Returns its id. (`arg` lets a hot caller pass a shared function and a record instead of a
   * fresh closure.)
   */
  send<A = undefined>(from: string, to: Endpoint, label: MessageLabel, deliver: (arg: A) => void, arg?: A): number {
    const msg = this.nextMsg++;
    const link = this.link(from, to.id);
    const { faults, random } = link;
    const lost = random.chance(faults.loss);
    let delayMs = drawLatencyMs(random, faults.latency);
    if (random.chance(faults.reorder)) delayMs += faults.reorderDelayMs;
    const cutAtSend = !this.partitions.healed && this.partitions.blocks(from, to.id);
    const flight = new Flight(msg, from, to, link, label, deliver, arg, lost ? 'loss' : cutAtSend ? 'partition' : null);
    this.sim.recordCoded(link.sendTag, MESSAGE, withActor(msg, link.toPeer), label);
    this.carry(flight, delayMs);
    if (random.chance(faults.duplicate)) {
      const copyDelayMs = drawLatencyMs(random, faults.latency);
      this.carry(flight.copy(cutAtSend ? 'partition' : null), copyDelayMs);
    }
    return msg;
  }

  private carry(flight: Flight, delayMs: number): void {
    // A lost message is recorded where it would have arrived, so its arrow ends in a cross.
    if (flight.fate !== null) this.sim.kernel.schedule(delayMs, null, this.recordLoss, undefined, flight);
    else this.sim.kernel.schedule(delayMs, flight.to.owner, this.arrive, this.recordCrashed, flight);
  }

  /** A message reached its receiver's process: deliver it, unless the link was cut meanwhile (kernel callback). */
  private arrived(flight: Flight): void {
    // A link cut while the message was on the wire loses it too.
    if (!this.partitions.healed && this.partitions.blocks(flight.from, flight.to.id)) {
      this.dropped(flight, 'partition');
      return;
    }
    this.sim.recordCoded(flight.link.deliverTag, MESSAGE, withActor(flight.msg, flight.link.fromPeer), flight.label);
    (flight.deliver as (arg: unknown) => void)(flight.arg);
  }

  /** Records a message that will never be delivered (kernel callback). */
  private dropped(flight: Flight, reason: 'loss' | 'partition' | 'crashed'): void {
    const { msg, to } = flight;
    this.sim.record('net.drop', to.id, { msg, to: to.id, label: labelText(flight.label), reason });
  }

  /** The directed link from → to, created on first use (looked up on every message, so no string building). */
  private link(from: string, to: string): Link {
    let byTo = this.linksFrom.get(from);
    if (!byTo) {
      byTo = new Map();
      this.linksFrom.set(from, byTo);
    }
    let link = byTo.get(to);
    if (!link) {
      const name = linkName(from, to);
      const { trace } = this.sim;
      link = {
        random: this.sim.random.fork(name),
        faults: faultsOnLink(this.options, name),
        sendTag: trace.tagOf('net.send', from),
        deliverTag: trace.tagOf('net.deliver', to),
        toPeer: trace.actorId(to),
        fromPeer: trace.actorId(from),
      };
      byTo.set(to, link);
      this.links.set(name, link);
    }
    return link;
  }
}
