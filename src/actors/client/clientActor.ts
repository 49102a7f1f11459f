import type { CircuitBreakerLaneState } from './circuitBreakerMachine';
import type { LockClientLaneState } from './lockClientMachine';
import type { Process } from '../process/process';
import type { StepClientLaneState } from './stepClientMachine';

/**
 * What a client's lane can show. The two kinds share their words, each with one meaning:
 * `retrying` is a pause before another try, `waiting` only ever a step list's wait step.
 */
export type ClientLaneState = LockClientLaneState | CircuitBreakerLaneState | StepClientLaneState;

/** Lane states after which a client does nothing more by itself. */
export const FINAL_CLIENT_STATES: ReadonlySet<ClientLaneState | ''> = new Set<ClientLaneState>([
  'done',
  'failed',
  'lost',
  'crashed',
]);

/**
 * What the world, the topology and the inspector need from any client: a lock client running
 * a recipe or a client following an explicit step list.
 */
export interface ClientActor {
  readonly id: string;
  readonly process: Process;
  /** What its lane shows now ('' before its machine has started). */
  readonly state: ClientLaneState | '';
  /** Cuts its machines loose from the finished run (see ClientShell.detachMachines). */
  detachMachines(): void;
}
