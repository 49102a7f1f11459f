/**
 * Which directed links are cut. A partition splits named processes into groups: a message
 * between two different groups is lost; processes not named in any group are unaffected.
 * A one-way partition cuts only messages from the first group to the second: the classic
 * "I can hear you but you cannot hear me" failure.
 */
export class Partitions {
  /** Cut directed pairs, as "from->to". */
  private readonly cut = new Set<string>();

  /** True when no link is cut (the common case, checked on every message). */
  get healed(): boolean {
    return this.cut.size === 0;
  }

  /** Cuts every link between processes of different groups (or only groups[0] → groups[1]). */
  split(groups: readonly (readonly string[])[], oneWay: boolean): void {
    if (oneWay) {
      for (const from of groups[0] ?? []) for (const to of groups[1] ?? []) this.cut.add(`${from}->${to}`);
      return;
    }
    groups.forEach((a, i) =>
      groups.forEach((b, j) => {
        if (i === j) return;
        for (const from of a) for (const to of b) this.cut.add(`${from}->${to}`);
      }),
    );
  }

  heal(): void {
    this.cut.clear();
  }

  /** True when a message from `from` to `to` would be lost. */
  blocks(from: string, to: string): boolean {
    return this.cut.size > 0 && this.cut.has(`${from}->${to}`);
  }
}
