/**
 * Delta debugging (Zeller's ddmin): the smallest sublist of `items` for which `fails` still
 * holds, removing chunks first and single items last. The result is 1-minimal: removing any one
 * item more makes the failure go away. `fails(items)` must be true to begin with.
 *
 * @example ddmin([pauseA, crashR1, healAll], (xs) => violates(xs)) // → [pauseA]
 */
export function ddmin<T>(items: readonly T[], fails: (items: readonly T[]) => boolean): T[] {
  let current = [...items];
  let chunks = 2;
  while (current.length >= 2) {
    const size = Math.ceil(current.length / chunks);
    let reduced = false;
    for (let start = 0; start < current.length; start += size) {
      // Try the complement of one chunk: everything but items [start, start + size).
      const complement = [...current.slice(0, start), ...current.slice(start + size)];
      if (complement.length < current.length && fails(complement)) {
        current = complement;
        chunks = Math.max(chunks - 1, 2);
        reduced = true;
        break;
      }
    }
    if (reduced) continue;
    if (chunks >= current.length) break;
    chunks = Math.min(current.length, chunks * 2);
  }
  // A single item may be unnecessary too (ddmin's loop stops at length 1).
  if (current.length === 1 && fails([])) return [];
  return current;
}
