/**
 * A sorted set: members ordered by score, then by member bytes (Redis compares with memcmp,
 * which for our one-byte-per-character strings equals JavaScript's `<`). A sorted array is
 * plenty for the sizes a lesson uses and keeps ranks trivial.
 */
export class SortedSet {
  private readonly scores = new Map<string, number>();
  private ordered: Array<{ member: string; score: number }> = [];

  /** Number of members. */
  get size(): number {
    return this.ordered.length;
  }

  /** The member's score, or undefined when absent. */
  score(member: string): number | undefined {
    return this.scores.get(member);
  }

  /** Adds or moves a member; -0 is stored as 0 like the real server's listpack encoding. */
  set(member: string, score: number): void {
    const normalized = score === 0 ? 0 : score;
    if (this.scores.has(member)) this.remove(member);
    this.scores.set(member, normalized);
    const index = this.insertionIndex(member, normalized);
    this.ordered.splice(index, 0, { member, score: normalized });
  }

  /** Removes a member; returns whether it was present. */
  remove(member: string): boolean {
    const score = this.scores.get(member);
    if (score === undefined) return false;
    this.scores.delete(member);
    const index = this.insertionIndex(member, score);
    this.ordered.splice(index, 1);
    return true;
  }

  /** Zero-based rank by ascending order, or undefined. */
  rank(member: string): number | undefined {
    const score = this.scores.get(member);
    return score === undefined ? undefined : this.insertionIndex(member, score);
  }

  /** All members in ascending order (the live array; callers must not mutate it). */
  entries(): ReadonlyArray<{ member: string; score: number }> {
    return this.ordered;
  }

  /** A deep copy, for snapshots. */
  clone(): SortedSet {
    const copy = new SortedSet();
    for (const [member, score] of this.scores) copy.scores.set(member, score);
    copy.ordered = this.ordered.map((entry) => ({ ...entry }));
    return copy;
  }

  private insertionIndex(member: string, score: number): number {
    let lo = 0;
    let hi = this.ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const entry = this.ordered[mid] as { member: string; score: number };
      const before = entry.score < score || (entry.score === score && entry.member < member);
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
