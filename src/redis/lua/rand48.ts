/**
 * Redis 7.0's Lua `math.random`: the rand48 generator, 48 bits of state. Redis never seeds it
 * from outside, so every script starts from the same static value unless it calls randomseed.
 */
export const RAND48_INITIAL = 0x1234abcd330en;

const RAND48_MASK = (1n << 48n) - 1n;

/** The state after one step, and the 31-bit number that step yields. */
export function nextRand48(state: bigint): { state: bigint; value: bigint } {
  const next = (state * 0x5deece66dn + 0xbn) & RAND48_MASK;
  return { state: next, value: next >> 17n };
}

/** The state `srand48(seed)` sets: the seed's low 32 bits over the constant 0x330e. */
export function seedRand48(seed: number): bigint {
  return ((BigInt(Math.trunc(seed)) & 0xffffffffn) << 16n) | 0x330en;
}
