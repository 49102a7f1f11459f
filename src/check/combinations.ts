/**
 * Counting and unranking k-subsets of n items in lexicographic order, so that any schedule of an
 * exhaustive search can be computed from its index alone (as the random search's are), and a
 * search can start, stop and resume at any index.
 */

/** n choose k, exact while it stays below 2^53 (a search that large is never run to its end). */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  const small = Math.min(k, n - k);
  let result = 1;
  for (let i = 1; i <= small; i++) result = (result * (n - small + i)) / i;
  return Math.round(result);
}

/**
 * The k-subset of [0, n) at `rank` in lexicographic order (rank 0 is [0, 1, ..., k-1]).
 *
 * @example combinationAt(4, 2, 3) // → [1, 2]  ([0,1], [0,2], [0,3], [1,2], ...)
 */
export function combinationAt(n: number, k: number, rank: number): number[] {
  if (rank < 0 || rank >= choose(n, k))
    throw new RangeError(`No ${k}-subset of ${n} items at rank ${rank} (there are ${choose(n, k)}).`);
  const picked: number[] = [];
  let rest = rank;
  let next = 0;
  for (let slot = 0; slot < k; slot++) {
    // Skip whole blocks of subsets that start with `next` while rank lies beyond them.
    for (;;) {
      const block = choose(n - next - 1, k - slot - 1);
      if (rest < block) break;
      rest -= block;
      next++;
    }
    picked.push(next++);
  }
  return picked;
}

/**
 * Moves `picked` (a k-subset of [0, n), ascending) to the next one in lexicographic order, in
 * place; false when it was the last. Walking this way costs O(k) a step, where unranking each
 * index anew costs O(n).
 */
export function nextCombination(picked: number[], n: number): boolean {
  const k = picked.length;
  let i = k - 1;
  while (i >= 0 && picked[i] === n - k + i) i--;
  if (i < 0) return false;
  picked[i]!++;
  for (let j = i + 1; j < k; j++) picked[j] = picked[j - 1]! + 1;
  return true;
}
