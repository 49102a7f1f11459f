import type { Sim } from '../../sim/sim';
import { Process } from '../process/process';
import type { ReadResult, Resource } from './resource';

/**
 * A stock counter updated by read-modify-write: a client reads the count, works, then writes
 * back count − 1. It never refuses a write, so two clients who both read 10 both write 9: one
 * sale vanishes (a lost update). The write records the version it was based on, so a checker
 * can see which writes overwrote a change they never read.
 */
export class Inventory implements Resource {
  readonly process: Process;
  readonly kind = 'inventory' as const;
  readonly readsFirst = true;
  readonly canFence = false;
  private version = 0;

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    public stock: number,
  ) {
    this.process = new Process(sim, id);
  }

  read(from: string): ReadResult {
    const result = { value: String(this.stock), version: this.version, act: true };
    this.sim.record('resource.read', this.id, { from, value: result.value, version: result.version });
    return result;
  }

  describeRequest() {
    return { value: 'stock − 1', label: 'decrement', op: 'decrement' as const };
  }

  act(from: string, token: number | null, basis: ReadResult | null): boolean {
    const readVersion = basis?.version ?? this.version;
    const next = Number(basis?.value ?? this.stock) - 1;
    this.version++;
    this.stock = next;
    this.sim.record('resource.write', this.id, {
      from,
      token,
      value: `stock ${next}`,
      accepted: true,
      highestToken: null,
      reason: null,
      op: 'decrement',
      version: this.version,
      readVersion,
    });
    return true;
  }
}
