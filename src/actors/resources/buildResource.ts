import type { Sim } from '../../sim/sim';
import { CasRow } from './casRow';
import { DispatchService } from './dispatch';
import { Inventory } from './inventory';
import { PaymentProvider } from './payment';
import type { Resource, ResourceKind } from './resource';
import { Store, type FenceCompare } from './store';

/** The protected resource as a scenario describes it, resolved (scenario/build.ts). */
export interface ResourceSpec {
  id: string;
  label: string;
  kind: ResourceKind;
  fencing: boolean;
  /** How a fenced store or row compares tokens: `strict` refuses a token equal to the highest seen. */
  fenceCompare: FenceCompare;
  /** inventory: starting stock. */
  stock: number;
  /** payment / dispatch: the order being charged or assigned. */
  order: string;
  /** payment: honour idempotency keys. */
  idempotencyKeys: boolean;
  /** dispatch: assign only if the order is still NEW. */
  conditional: boolean;
}

/** The resource `r` describes, recording into `sim` (the reality harness runs the same classes in its resource service: src/reality/resourceProcess.ts). */
export function buildResource(sim: Sim, r: ResourceSpec, valueOf: (client: string) => string): Resource {
  switch (r.kind) {
    case 'store':
    case 'db-row':
      return new Store(sim, r.id, r.fencing, r.kind, r.fenceCompare);
    case 'inventory':
      return new Inventory(sim, r.id, r.stock);
    case 'payment':
      return new PaymentProvider(sim, r.id, r.order, r.idempotencyKeys);
    case 'dispatch':
      return new DispatchService(sim, r.id, r.order, r.conditional);
    case 'cas-row':
      return new CasRow(sim, r.id, valueOf);
  }
}
