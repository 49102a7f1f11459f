import { SHARED_RECIPES, WRITER_RECIPES, type RecipeName } from '../actors/recipes/catalog';

/** What the lock-pattern checkers need to know about a run's clients. */
export interface PatternFacts {
  /** Keys several clients may hold at once (read-write locks, semaphores): single-holder and single-lease skip them. */
  sharedKeys: ReadonlySet<string>;
  /** The clients of those locks: single-writer skips their writes (they share the resource by design). */
  sharedClients: ReadonlySet<string>;
  /** Each semaphore key's permits (the fewest any of its clients was given). */
  permitsOf: ReadonlyMap<string, number>;
  /** Keys of read-write locks, and the clients that take them as writers. */
  readWriteKeys: ReadonlySet<string>;
  writers: ReadonlySet<string>;
  /** Keys of fair locks. */
  fairKeys: ReadonlySet<string>;
  /** Some client has a circuit breaker. */
  breakers: boolean;
}

/** The part of a resolved client these facts come from (a step client has no recipe of its own). */
export interface PatternClient {
  id: string;
  recipe: RecipeName;
  keys: readonly string[];
  permits?: number;
  breaker?: object;
  steps?: readonly unknown[];
}

/** Gathers the pattern facts from a run's clients. */
export function patternFacts(clients: readonly PatternClient[]): PatternFacts {
  const sharedKeys = new Set<string>();
  const sharedClients = new Set<string>();
  const permitsOf = new Map<string, number>();
  const readWriteKeys = new Set<string>();
  const writers = new Set<string>();
  const fairKeys = new Set<string>();
  for (const c of clients) {
    if (c.steps !== undefined) continue;
    if (SHARED_RECIPES.includes(c.recipe)) {
      sharedClients.add(c.id);
      for (const k of c.keys) sharedKeys.add(k);
    }
    if (c.recipe === 'semaphore') for (const k of c.keys) permitsOf.set(k, Math.min(permitsOf.get(k) ?? Infinity, c.permits ?? 1));
    if (c.recipe !== 'semaphore' && SHARED_RECIPES.includes(c.recipe)) for (const k of c.keys) readWriteKeys.add(k);
    if (WRITER_RECIPES.includes(c.recipe)) writers.add(c.id);
    if (c.recipe === 'fair-lock') for (const k of c.keys) fairKeys.add(k);
  }
  return { sharedKeys, sharedClients, permitsOf, readWriteKeys, writers, fairKeys, breakers: clients.some((c) => c.steps === undefined && c.breaker !== undefined) };
}

/** Facts for a run without any lock pattern (tests that call the checkers directly). */
export const NO_PATTERNS: PatternFacts = patternFacts([]);
