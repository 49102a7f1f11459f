/**
 * A RESP2 reply, as a Redis server sends it. Integers are bigint because Redis's are 64-bit
 * (INCR reaches 9223372036854775807, beyond a double's exact range).
 */
export type Reply =
  | { type: 'status'; value: string }
  | { type: 'error'; value: string }
  | { type: 'integer'; value: bigint }
  | { type: 'bulk'; value: string | null }
  | { type: 'array'; value: Reply[] | null };

export const ok: Reply = { type: 'status', value: 'OK' };
export const nil: Reply = { type: 'bulk', value: null };
export const status = (value: string): Reply => ({ type: 'status', value });
export const error = (value: string): Reply => ({ type: 'error', value });
export const integer = (value: number | bigint): Reply => ({ type: 'integer', value: BigInt(value) });
export const bulk = (value: string | null): Reply => ({ type: 'bulk', value });
export const array = (value: Reply[] | null): Reply => ({ type: 'array', value });
