import { drawLatencyMs, type LinkFaults } from '../net/faults';
import { faultsOnLink, linkName, type NetworkOptions } from '../net/network';
import { Partitions } from '../net/partitions';
import { Prng } from '../sim/prng';

/** What becomes of one message sent now on a directed link: lost, or delivered after `delayMs` (scenario ms). */
interface MessageFate {
  lost: boolean;
  delayMs: number;
}

/**
 * The scenario's network as the link proxies apply it between real processes: each directed
 * link's faults (the defaults, then `network.links` overrides, later ones winning) and which
 * links a partition cuts, changed while the run goes on by the script's `network`, `partition`
 * and `heal` steps, with the simulator's own rules (`Network` and `Partitions` in src/net).
 *
 * Each directed link draws from the simulator's own stream for it, the scenario's seed forked
 * as `net:<from>-><to>`, in the simulator's order per message (loss, then delay), so the n-th
 * message on a link meets the fate the simulator's n-th message there met: a fractional loss
 * drops the same messages when the run sends the same ones, and a uniform delay is the same
 * draw. Duplication and reordering, which would draw next, are refused (support.ts).
 */
export class RealNetwork {
  private readonly root: Prng;
  private readonly links = new Map<string, { random: Prng; faults: LinkFaults }>();
  private readonly partitions = new Partitions();
  private readonly listeners: (() => void)[] = [];

  constructor(
    seed: number,
    private options: NetworkOptions,
  ) {
    this.root = Prng.fromSeed(seed);
  }

  /** Draws the fate of the next message on from → to (not counting partitions: see `cut`). */
  send(from: string, to: string): MessageFate {
    const { random, faults } = this.link(from, to);
    const lost = random.chance(faults.loss);
    return { lost, delayMs: drawLatencyMs(random, faults.latency) };
  }

  /** True while a partition cuts messages from `from` to `to`: one sent, or arriving, now is lost. */
  cut(from: string, to: string): boolean {
    return this.partitions.blocks(from, to);
  }

  /** The script's `network` step: new faults everywhere, or on one directed link (Network.setFaults). */
  setFaults(faults: Partial<LinkFaults>, link?: { from: string; to: string }): void {
    this.options = link
      ? { ...this.options, links: [...this.options.links, { ...link, faults }] }
      : { defaults: { ...this.options.defaults, ...faults }, links: this.options.links };
    for (const [name, l] of this.links) l.faults = faultsOnLink(this.options, name);
  }

  partition(groups: readonly (readonly string[])[], oneWay: boolean): void {
    this.partitions.split(groups, oneWay);
    this.listeners.forEach((changed) => changed());
  }

  heal(): void {
    this.partitions.heal();
    this.listeners.forEach((changed) => changed());
  }

  /** Calls `changed` after every partition and heal (what a cut held may go on). */
  onChange(changed: () => void): void {
    this.listeners.push(changed);
  }

  private link(from: string, to: string): { random: Prng; faults: LinkFaults } {
    const name = linkName(from, to);
    let link = this.links.get(name);
    if (!link) {
      link = { random: this.root.fork(name), faults: faultsOnLink(this.options, name) };
      this.links.set(name, link);
    }
    return link;
  }
}
