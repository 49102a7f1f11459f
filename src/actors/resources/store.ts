import type { Sim } from '../../sim/sim';
import { Process } from '../process/process';
import type { ReadResult, Resource } from './resource';

/**
 * The thing the lock protects (the espresso machine): it applies writes. Unfenced, it trusts
 * every caller. Fenced, it remembers the highest token it has accepted and refuses any write
 * that carries a lower one, so a stale holder that wakes up late cannot write after a newer
 * holder has. A stale write that arrives before the newer holder's first one is accepted:
 * fencing keeps writes in lease order, it does not make one writer (lesson 6).
 *
 * As a `db-row`, the same check is a conditional update:
 * `UPDATE row SET value = ?, fence_token = ? WHERE fence_token <= ?`, which matches no row when
 * a newer holder already wrote.
 *
 * `lenient` (`<=`) accepts a token equal to the highest seen, so a holder can write more than
 * once, and so can a second holder that was handed the same number (a counter that repeated
 * one after a failover). `strict` (`<`) accepts each token once: a repeat is refused, whoever
 * carries it, including the holder's own second write.
 */
export type FenceCompare = 'lenient' | 'strict';

export class Store implements Resource {
  readonly process: Process;
  readonly readsFirst = false;
  readonly canFence = true;
  private highestToken: number | null = null;
  value: string | null = null;

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    readonly fencing: boolean,
    readonly kind: 'store' | 'db-row' = 'store',
    readonly compare: FenceCompare = 'lenient',
  ) {
    this.process = new Process(sim, id);
  }

  read(): ReadResult {
    return { value: this.value ?? '', version: 0, act: true };
  }

  describeRequest(from: string, token: number | null) {
    const value = `${from}'s order`;
    return { value, label: token === null ? 'write' : `write token=${token}`, op: 'write' as const };
  }

  act(from: string, token: number | null): boolean {
    return this.write(from, token, this.describeRequest(from, token).value);
  }

  /** Applies or refuses one write; returns whether it was accepted. */
  write(from: string, token: number | null, value: string): boolean {
    const reason = this.refusal(token);
    const accepted = reason === null;
    this.sim.record('resource.write', this.id, {
      from,
      token,
      value,
      accepted,
      highestToken: this.highestToken,
      reason,
    });
    if (accepted) {
      this.value = value;
      if (token !== null) this.highestToken = Math.max(this.highestToken ?? token, token);
    }
    return accepted;
  }

  private refusal(token: number | null): string | null {
    if (!this.fencing) return null;
    if (token === null) return 'no fencing token';
    const highest = this.highestToken;
    if (highest === null) return null;
    if (token < highest) {
      return this.kind === 'db-row'
        ? `UPDATE matched 0 rows: fence_token is ${highest}, this write carries ${token}`
        : `stale token ${token} < ${highest}`;
    }
    if (token === highest && this.compare === 'strict') {
      return this.kind === 'db-row'
        ? `UPDATE matched 0 rows: fence_token is already ${highest} (WHERE fence_token < ${token})`
        : `token ${token} was already used (strict: one write per token)`;
    }
    return null;
  }
}
