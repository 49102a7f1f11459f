/**
 * Every invariant a checker reports on (see src/check). Kept apart from the scenario schema
 * (schema.ts re-exports it) so that the page's player can list them without loading zod's
 * scenario schemas, whose construction is a long task on a phone.
 */
export const INVARIANTS = [
  'single-writer',
  'single-holder',
  'single-lease',
  'released-by-owner',
  'fencing-monotonic',
  'writes-in-lease-order',
  'no-lost-update',
  'no-double-charge',
  'no-double-assignment',
  'progress',
  'run-completes',
  'within-permits',
  'readers-or-one-writer',
  'served-in-order',
  'bounded-wait',
  'calm-when-down',
] as const;
export type InvariantName = (typeof INVARIANTS)[number];
