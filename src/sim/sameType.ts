/**
 * Compile-time agreement between two declarations of one thing (a zod schema and the type it
 * parses into, a registry and the names derived from it). Mutual assignability is not enough:
 * an optional field present in one and missing in the other passes it, so this compares the
 * types the way the checker compares generic signatures.
 */
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** `type _ = Expect<SameType<X, Y>>` fails `tsc` the day X and Y drift apart. */
export type Expect<T extends true> = T;
