import type { Sim } from '../../sim/sim';
import { Process } from '../process/process';
import type { ReadResult, Resource } from './resource';

/**
 * A payment provider charging one order. A client reads whether the order is paid and charges
 * it if not. With idempotency keys on, the provider remembers each order's key and answers a
 * repeat with the first result instead of charging again: the fix for the double charge.
 */
export class PaymentProvider implements Resource {
  readonly process: Process;
  readonly kind = 'payment' as const;
  readonly readsFirst = true;
  readonly canFence = false;
  private charges = 0;

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    readonly order: string,
    readonly idempotencyKeys: boolean,
  ) {
    this.process = new Process(sim, id);
  }

  read(from: string): ReadResult {
    const paid = this.charges > 0;
    this.sim.record('resource.read', this.id, {
      from,
      value: paid ? `${this.order} paid` : `${this.order} unpaid`,
      version: this.charges,
    });
    return { value: paid ? 'paid' : 'unpaid', version: this.charges, act: !paid };
  }

  describeRequest() {
    return {
      value: `charge ${this.order}`,
      label: this.idempotencyKeys ? `charge key=${this.order}` : 'charge',
      op: 'charge' as const,
    };
  }

  act(from: string, token: number | null): boolean {
    const repeat = this.idempotencyKeys && this.charges > 0;
    if (!repeat) this.charges++;
    this.sim.record('resource.write', this.id, {
      from,
      token,
      value: `charge ${this.order}`,
      accepted: !repeat,
      highestToken: null,
      reason: repeat
        ? `idempotency key ${this.order} already used: returned the first charge's result, charged nothing`
        : null,
      op: 'charge',
      order: this.order,
    });
    return !repeat;
  }
}
