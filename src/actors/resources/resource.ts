import type { Process } from '../process/process';

/** What a client read from a resource before working, and will act on. */
export interface ReadResult {
  value: string;
  version: number;
  /** False when the state read says there is nothing left to do (order already paid or assigned). */
  act: boolean;
}

/**
 * Something a lock protects. A client holding the lock may read it first, then acts on it once
 * its work is done. Each resource records what it accepted and refused, so checkers can judge
 * the run from the trace alone.
 */
export interface Resource {
  readonly id: string;
  readonly kind: ResourceKind;
  readonly process: Process;
  /** Whether clients read before they act (the read-modify-write resources). */
  readonly readsFirst: boolean;
  /** Whether this resource can check fencing tokens at all. */
  readonly canFence: boolean;
  read(from: string): ReadResult;
  /** Applies (or refuses) the client's change, based on what it read; returns whether it was applied. */
  act(from: string, token: number | null, basis: ReadResult | null): boolean;
  /** What the client sends as its change, for the `resource.request` event and the arrow label. */
  describeRequest(
    from: string,
    token: number | null,
  ): { value: string; label: string; op: 'write' | 'decrement' | 'charge' | 'assign' };
}

export const RESOURCE_KINDS = ['store', 'db-row', 'inventory', 'payment', 'dispatch', 'cas-row'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** The resources that can check a fencing token: the others would silently ignore it. */
export const FENCEABLE_KINDS: readonly ResourceKind[] = ['store', 'db-row'];
