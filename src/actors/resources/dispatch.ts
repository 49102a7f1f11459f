import type { Sim } from '../../sim/sim';
import { Process } from '../process/process';
import type { ReadResult, Resource } from './resource';

/**
 * A delivery-dispatch service: one order, one driver. A client reads the order's status and,
 * if it is NEW, assigns its driver. Unconditional, a second assignment overwrites the first and
 * two drivers set off. With `conditional`, assignment is `UPDATE ... WHERE status = 'NEW'`: the
 * second one matches nothing and is refused.
 */
export class DispatchService implements Resource {
  readonly process: Process;
  readonly kind = 'dispatch' as const;
  readonly readsFirst = true;
  readonly canFence = false;
  private driver: string | null = null;
  private version = 0;

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    readonly order: string,
    readonly conditional: boolean,
  ) {
    this.process = new Process(sim, id);
  }

  read(from: string): ReadResult {
    const value = this.driver === null ? 'NEW' : `ASSIGNED to ${this.driver}`;
    this.sim.record('resource.read', this.id, { from, value: `${this.order} ${value}`, version: this.version });
    return { value, version: this.version, act: this.driver === null };
  }

  describeRequest(from: string) {
    return {
      value: `assign ${this.order} to ${from}`,
      label: this.conditional ? `assign if NEW` : 'assign',
      op: 'assign' as const,
    };
  }

  act(from: string, token: number | null, basis: ReadResult | null): boolean {
    const refused = this.conditional && this.driver !== null;
    const reason = refused
      ? `order ${this.order} is already ASSIGNED to ${this.driver}: the conditional update matched 0 rows`
      : null;
    if (!refused) {
      this.driver = from;
      this.version++;
    }
    this.sim.record('resource.write', this.id, {
      from,
      token,
      value: `assign ${this.order} to ${from}`,
      accepted: !refused,
      highestToken: null,
      reason,
      op: 'assign',
      order: this.order,
      version: this.version,
      readVersion: basis?.version ?? this.version,
    });
    return !refused;
  }
}
