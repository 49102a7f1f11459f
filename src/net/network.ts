import type { Owner } from '../sim/kernel';
import type { Prng } from '../sim/prng';
import type { Sim } from '../sim/sim';

/** The fault knobs of the network, as a plain options object. */
export interface NetworkOptions {
  /** One-way delay of each message, drawn uniformly from [latencyMsMin, latencyMsMax]. */
  latencyMsMin: number;
  latencyMsMax: number;
}

/** Where a message goes: the receiving process's id and its current life (see Process.owner). */
export interface Endpoint {
  readonly id: string;
  readonly owner: Owner;
}

/**
 * Carries messages between processes with a delay drawn from a per-link random stream: the
 * delays on A→r1 depend only on the seed and that link's name, so adding a client elsewhere
 * never changes them. Delivery is scheduled for the receiver, so a paused receiver holds the
 * message until it resumes and a crashed one never sees it.
 */
export class Network {
  private nextMsg = 1;
  private readonly links = new Map<string, Prng>();

  constructor(
    private readonly sim: Sim,
    readonly options: NetworkOptions,
  ) {}

  /** Sends a message; `deliver` runs at the receiver when it arrives. Returns the message id. */
  send(from: string, to: Endpoint, label: string, deliver: () => void): number {
    const msg = this.nextMsg++;
    this.sim.record('net.send', from, { msg, to: to.id, label });
    const delayMs = this.link(from, to.id).int(this.options.latencyMsMin, this.options.latencyMsMax);
    this.sim.kernel.schedule(delayMs, to.owner, 'message', () => {
      this.sim.record('net.deliver', to.id, { msg, from, label });
      deliver();
    });
    return msg;
  }

  private link(from: string, to: string): Prng {
    const name = `net:${from}->${to}`;
    let prng = this.links.get(name);
    if (!prng) {
      prng = this.sim.random.fork(name);
      this.links.set(name, prng);
    }
    return prng;
  }
}
