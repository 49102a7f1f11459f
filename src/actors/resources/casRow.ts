import type { Sim } from '../../sim/sim';
import { Process } from '../process/process';
import type { ReadResult, Resource } from './resource';

/**
 * A database row guarded by the lock's random value instead of a fencing token: the defence
 * Redlock's author proposed for locks that cannot issue a monotonic number. A holder first
 * claims the row, stamping its value into an `owner` column:
 *
 *   UPDATE job SET owner = :my_value WHERE id = :id
 *
 * and every change it makes afterwards is a compare-and-set on that column:
 *
 *   UPDATE job SET data = :data WHERE id = :id AND owner = :my_value
 *
 * So a holder whose row was claimed by someone newer is refused. What the row cannot do is
 * tell an old value from a new one: random values have no order, so a stale holder whose claim
 * arrives late simply takes the row back, and its writes pass. The claim is the client's read
 * (this resource reads first); the value comes from `valueOf`, standing for the value the
 * client's message carries.
 */
export class CasRow implements Resource {
  readonly process: Process;
  readonly kind = 'cas-row' as const;
  readonly readsFirst = true;
  readonly canFence = false;
  /** The value in the owner column: the last claim's, or null before any claim. */
  private owner: string | null = null;
  private version = 0;

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    /** The random lock value a client stamps and compares with. */
    private readonly valueOf: (client: string) => string,
  ) {
    this.process = new Process(sim, id);
  }

  /** The claim: whoever asks becomes the owner, whatever the column held before. */
  read(from: string): ReadResult {
    const previous = this.owner;
    this.owner = this.valueOf(from);
    this.version++;
    const value = `owner = ${this.owner}${previous === null ? '' : ` (was ${previous})`}`;
    this.sim.record('resource.read', this.id, { from, value, version: this.version });
    return { value, version: this.version, act: true };
  }

  describeRequest(from: string) {
    return { value: `${from}'s order`, label: `write if owner = ${this.valueOf(from)}`, op: 'write' as const };
  }

  act(from: string, token: number | null): boolean {
    const mine = this.valueOf(from);
    const accepted = this.owner === mine;
    const reason = accepted
      ? null
      : `UPDATE matched 0 rows: owner is ${this.owner ?? 'empty'}, this write carries ${mine}`;
    if (accepted) this.version++;
    this.sim.record('resource.write', this.id, {
      from,
      token,
      value: `${from}'s order`,
      accepted,
      highestToken: null,
      reason,
    });
    return accepted;
  }
}
