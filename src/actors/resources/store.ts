import type { Sim } from '../../sim/sim';
import { Process } from '../process';

/**
 * The thing the lock protects (the espresso machine): it applies writes. Unfenced, it trusts
 * every caller. Fenced, it remembers the highest token it has accepted and refuses any write
 * that carries a lower one, so a stale holder that wakes up late cannot do harm.
 */
export class Store {
  readonly process: Process;
  private highestToken: number | null = null;
  value: string | null = null;

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    readonly fencing: boolean,
  ) {
    this.process = new Process(sim, id);
  }

  /** Applies or refuses one write; returns whether it was accepted. */
  write(from: string, token: number | null, value: string): boolean {
    const reason = this.refusal(token);
    const accepted = reason === null;
    this.sim.record('resource.write', this.id, { from, token, value, accepted, highestToken: this.highestToken, reason });
    if (accepted) {
      this.value = value;
      if (token !== null) this.highestToken = Math.max(this.highestToken ?? token, token);
    }
    return accepted;
  }

  private refusal(token: number | null): string | null {
    if (!this.fencing) return null;
    if (token === null) return 'no fencing token';
    if (this.highestToken !== null && token < this.highestToken) return `stale token ${token} < ${this.highestToken}`;
    return null;
  }
}
