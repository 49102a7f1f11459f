/**
 * What ties an actor's machines to its run: each machine started (one per life of its process)
 * holds the actor through its clock, its subscription and its effects. Once a run is over and
 * only its verdict is wanted (the explorer), cutting those ties lets the garbage collector free
 * the whole run with the young generation instead of copying it. See World.release.
 */
export class MachineTies {
  private readonly untie: (() => void)[] = [];

  /** Notes how to cut one machine loose. */
  add(untie: () => void): void {
    this.untie.push(untie);
  }

  /** Cuts every machine loose: they do nothing more. */
  cutAll(): void {
    for (const untie of this.untie) untie();
  }
}
