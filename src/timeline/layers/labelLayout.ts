/**
 * Label placement in plot pixels, as pure geometry: the marks that matter are obstacles no label
 * may cover, and labels are placed one by one in order of importance, each sliding right along
 * its own stretch of time until it overlaps nothing already placed, or hidden when it cannot.
 * Text is measured by an estimate (the renderer also runs in Node, where nothing can be
 * measured), generous enough for the bold 11 px labels the timeline uses.
 */

/** An axis-aligned rectangle: x0 < x1, y0 < y1. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Width of a bold 11 px system-ui character, rounded up so estimates err on the wide side. */
const CHAR_WIDTH_PX = 6.8;
/** A label keeps this much air from its neighbours. */
const GAP_PX = 3;

/** How wide `text` is drawn, estimated. */
export function textWidthPx(text: string): number {
  return [...text].length * CHAR_WIDTH_PX;
}

/** The box of a line of 11 px text whose baseline starts (anchor 'start') or centres at x, y. */
export function textBox(x: number, y: number, text: string, anchor: 'start' | 'middle' = 'start'): Box {
  const w = textWidthPx(text);
  const x0 = anchor === 'middle' ? x - w / 2 : x;
  return { x0, y0: y - 10, x1: x0 + w, y1: y + 3 };
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/**
 * A label to place: its boxes at the preferred x (a write's label is two lines, above and below
 * its mark, moved as one), and how far it may slide right and left, in px (a caption moves
 * within its own interval; a mark's label only a little, so it stays with its mark).
 */
export interface LabelRequest {
  boxes: Box[];
  slideMaxPx: number;
  /** How far left it may move (a positive number of px); 0 by default. */
  slideLeftMaxPx?: number;
}

/**
 * Places `labels` in order (most important first) around `obstacles`: returns for each the
 * shift, in px (positive to the right), it was placed at, or null where it had to be hidden.
 * @example placeLabels([markBox], [{ boxes: [textBox(10, 20, 'lease: A')], slideMaxPx: 200 }])
 */
export function placeLabels(obstacles: readonly Box[], labels: readonly LabelRequest[]): (number | null)[] {
  const taken = new Shelves();
  for (const o of obstacles) taken.add(o);
  return labels.map(({ boxes, slideMaxPx, slideLeftMaxPx = 0 }) => {
    const left = Math.min(...boxes.map((b) => b.x0));
    const right = Math.max(...boxes.map((b) => b.x1));
    const at = (dx: number) => boxes.map((b) => ({ x0: b.x0 + dx, y0: b.y0, x1: b.x1 + dx, y1: b.y1 }));
    const blockers = (dx: number) => at(dx).flatMap((m) => taken.overlapping(grow(m)));
    // Slide right past whatever is in the way, then, failing that, left before it.
    for (const direction of [1, -1] as const) {
      const limit = direction === 1 ? slideMaxPx : slideLeftMaxPx;
      let dx = 0;
      for (;;) {
        const hit = blockers(dx);
        if (hit.length === 0) {
          for (const b of at(dx)) taken.add(b);
          return dx;
        }
        const next =
          direction === 1
            ? Math.max(...hit.map((t) => t.x1 + GAP_PX - left))
            : Math.min(...hit.map((t) => t.x0 - GAP_PX - right));
        if (Math.abs(next) <= Math.abs(dx) || Math.abs(next) > limit || Math.sign(next) !== direction) break;
        dx = next;
      }
    }
    return null;
  });
}

/** Height of a shelf: boxes are filed under every shelf they touch, so a lookup scans only its row. */
const SHELF_PX = 16;

/**
 * Boxes filed by height, so a big run's hundreds of labels are each checked against their own
 * row rather than against every label placed so far.
 */
class Shelves {
  private readonly shelves = new Map<number, Box[]>();

  add(b: Box): void {
    for (let s = Math.floor(b.y0 / SHELF_PX); s <= Math.floor(b.y1 / SHELF_PX); s++) {
      const shelf = this.shelves.get(s);
      if (shelf) shelf.push(b);
      else this.shelves.set(s, [b]);
    }
  }

  overlapping(b: Box): Box[] {
    const found = new Set<Box>();
    for (let s = Math.floor(b.y0 / SHELF_PX); s <= Math.floor(b.y1 / SHELF_PX); s++) {
      for (const t of this.shelves.get(s) ?? []) if (overlaps(b, t)) found.add(t);
    }
    return [...found];
  }
}

function grow(b: Box): Box {
  return { x0: b.x0 - GAP_PX, y0: b.y0, x1: b.x1 + GAP_PX, y1: b.y1 };
}
