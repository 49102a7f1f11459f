import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';

/**
 * A seeded random stream. Every random choice in a run (latency, loss, tokens, jitter,
 * eviction sampling) draws from one of these, never from the global random source.
 *
 * Streams are split by name: `world.fork('net')`, `world.fork('client:A')`. A child's seed
 * depends only on its parent's seed and its name, so adding a client never changes the draws
 * another client or the network sees (TigerBeetle's rule: a child seed per subsystem).
 */
export class Prng {
  private constructor(
    readonly seed: number,
    private rng: JumpableRandomGenerator,
  ) {}

  static fromSeed(seed: number): Prng {
    return new Prng(seed >>> 0, xoroshiro128plus(seed >>> 0));
  }

  /** A child stream named `name`, independent of how much this stream has been used. */
  fork(name: string): Prng {
    return Prng.fromSeed(mix(this.seed, fnv1a32(name)));
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return uniformInt(this.rng, min, max);
  }

  /** A float in [0, 1). */
  float(): number {
    return uniformFloat64(this.rng);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return p > 0 && this.float() < p;
  }

  /** `bytes` random bytes as lower-case hex, e.g. a lock owner's token. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i++) out += this.int(0, 255).toString(16).padStart(2, '0');
    return out;
  }

  /** The generator's state, to restore a snapshot. */
  state(): readonly number[] {
    return this.rng.getState();
  }

  restore(state: readonly number[]): void {
    this.rng = xoroshiro128plusFromState(state);
  }
}

/** FNV-1a over UTF-16 code units: a stable 32-bit hash of a name. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mixes two 32-bit values (murmur3's finaliser) so nearby seeds give unrelated streams. */
function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
