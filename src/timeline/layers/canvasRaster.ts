import type { PaintJob, Rows } from './paintJob';

/** A zoom transform: plot x = base x * k + tx. */
export interface ZoomView {
  k: number;
  tx: number;
}

/** A picture of the dense layers painted for one view, wider than the plot so panning finds it. */
interface Bitmap {
  /** The finished picture. */
  canvas: OffscreenCanvas;
  view: ZoomView;
  /** What it shows (model, cursor, size): a bitmap for another key is never shown. */
  key: string;
  /** Plot pixels it covers, at its own view. */
  fromPx: number;
  toPx: number;
  /** Plot rows it covers (the part of a tall plot that is on screen). */
  rows: Rows;
}

/** A bitmap being painted a few jobs per frame. */
interface Pending extends Bitmap {
  jobs: PaintJob[];
  next: number;
}

/** Makes the paint jobs for a view, a pixel range and the rows to paint. */
export type JobMaker = (view: ZoomView, fromPx: number, toPx: number, rows: Rows) => PaintJob[];

/**
 * The dense layers of a big run, kept as a bitmap. While the learner zooms and pans, each
 * frame only draws the last bitmap under the new zoom (one scaled image: a millisecond at any
 * size of run), and a sharp bitmap for the new view is painted in slices of `budgetMs` per
 * frame, then swapped in. So no frame repaints tens of thousands of marks; a zoom shows slightly
 * soft marks for a few frames instead. A new cursor or model paints at once (a step must be exact).
 *
 * Only `rows` of the plot are painted, the lanes on screen and a margin (frame.ts picks them):
 * fifty lanes make a plot 3,200 px tall, and painting and copying the whole of it made each zoom
 * frame three times dearer. Rows that scroll into view are a new key, so they paint at once.
 */
export class CanvasRaster {
  private current: Bitmap | null = null;
  private pending: Pending | null = null;
  /**
   * Canvases of bitmaps no longer shown, reused for the next ones. They are megabytes each, and
   * a fresh one (or one emptied by transferToImageBitmap) costs its allocation on the first
   * drawing call, several milliseconds: while zooming that was most frames' longest part. So
   * bitmaps stay canvases, two take turns (one shown, one painted), and zooming in and out,
   * which paint two widths, keep a spare of each.
   */
  private readonly spares = new Map<string, OffscreenCanvas>();

  constructor(
    /** Called when more slices are waiting, to get another frame. */
    private readonly requestFrame: () => void,
    private readonly budgetMs = 5,
  ) {}

  /** Forgets every bitmap (a new model or size). */
  reset(): void {
    this.release(this.current);
    this.release(this.pending);
    this.current = null;
    this.pending = null;
  }

  /**
   * Shows the dense layers for `view` on `target` (which covers `rows` of the plot), clipped at
   * the playhead `clipX`. `sharp` paints the exact picture now (exports, benchmarks of a full paint).
   */
  show(
    target: HTMLCanvasElement,
    widthPx: number,
    rows: Rows,
    view: ZoomView,
    key: string,
    clipX: number,
    make: JobMaker,
    sharp = false,
  ): void {
    const heightPx = rows.bottomPx - rows.topPx;
    if (sharp || !this.current || this.current.key !== key || !sameRows(this.current.rows, rows)) {
      // Only the visible part, at once; the wider picture follows in slices if the view moves.
      this.release(this.pending);
      this.pending = null;
      this.current = this.paintAll(view, key, 0, widthPx, widthPx, rows, make);
    } else if (!sameView(this.current.view, view)) {
      if (!this.pending || this.pending.key !== key || !sameRows(this.pending.rows, rows)) {
        this.release(this.pending);
        // Zooming in stays inside what is visible, so a picture of the plot (and a little
        // either side for panning) is enough and three times quicker than the wide one.
        const zoomingIn = view.k > this.current.view.k;
        this.pending = zoomingIn
          ? this.start(view, key, widthPx, rows, make, -widthPx / 4, widthPx * 1.25)
          : this.start(view, key, widthPx, rows, make);
      }
      if (this.work()) {
        this.release(this.current);
        this.current = this.pending;
        this.pending = null;
        // The view may have moved on while it was painted: start over from where it is now.
        if (!sameView(this.current.view, view)) this.requestFrame();
      } else this.requestFrame();
    }
    blit(target, this.current, view, widthPx, heightPx, clipX);
  }

  private paintAll(
    view: ZoomView,
    key: string,
    fromPx: number,
    toPx: number,
    widthPx: number,
    rows: Rows,
    make: JobMaker,
  ): Bitmap {
    this.release(this.current);
    this.current = null;
    const pending = this.start(view, key, widthPx, rows, make, fromPx, toPx);
    const c = context(pending.canvas, pending.fromPx, rows);
    for (const job of pending.jobs) job(c);
    return pending;
  }

  /** Keeps the canvas of a bitmap no longer shown for the next one of its size. */
  private release(bitmap: Bitmap | null): void {
    if (!bitmap) return;
    const size = `${bitmap.canvas.width}x${bitmap.canvas.height}`;
    if (!this.spares.has(size) && this.spares.size >= 2) this.spares.clear();
    this.spares.set(size, bitmap.canvas);
  }

  /** A new bitmap for `view`, one plot width wider on each side than the plot. */
  private start(
    view: ZoomView,
    key: string,
    widthPx: number,
    rows: Rows,
    make: JobMaker,
    fromPx = -widthPx,
    toPx = 2 * widthPx,
  ): Pending {
    const ratio = globalThis.devicePixelRatio || 1;
    const width = Math.ceil((toPx - fromPx) * ratio);
    const height = Math.max(1, Math.ceil((rows.bottomPx - rows.topPx) * ratio));
    const size = `${width}x${height}`;
    let canvas = this.spares.get(size);
    this.spares.delete(size);
    if (canvas) {
      const c = canvas.getContext('2d', { willReadFrequently: true })!;
      c.setTransform(1, 0, 0, 1, 0, 0);
      c.clearRect(0, 0, width, height);
    } else canvas = new OffscreenCanvas(width, height);
    return { canvas, view: { ...view }, key, fromPx, toPx, rows, jobs: make(view, fromPx, toPx, rows), next: 0 };
  }

  /**
   * Runs pending jobs while the frame's budget allows (at least one, so it always advances);
   * true when the bitmap is complete. A job is not started when the longest job so far would
   * not fit in what is left.
   */
  private work(): boolean {
    const pending = this.pending!;
    const c = context(pending.canvas, pending.fromPx, pending.rows);
    const start = performance.now();
    let longestMs = 0;
    while (pending.next < pending.jobs.length) {
      const t = performance.now();
      pending.jobs[pending.next++]!(c);
      // A 2D canvas records drawing and rasterises it later, all at once; reading a pixel makes
      // it rasterise now, so each slice's real cost lands in its own frame.
      c.getImageData(0, 0, 1, 1);
      const now = performance.now();
      longestMs = Math.max(longestMs, now - t);
      if (now - start + longestMs > this.budgetMs) break;
    }
    return pending.next >= pending.jobs.length;
  }
}

function sameView(a: ZoomView, b: ZoomView): boolean {
  return a.k === b.k && Math.abs(a.tx - b.tx) < 0.01;
}

function sameRows(a: Rows, b: Rows): boolean {
  return a.topPx === b.topPx && a.bottomPx === b.bottomPx;
}

/** A 2D context whose units are plot pixels, with plot x `fromPx` and row `rows.topPx` at the bitmap's top left. */
function context(canvas: OffscreenCanvas, fromPx: number, rows: Rows): CanvasRenderingContext2D {
  // Offscreen and on-screen 2D contexts draw alike; the painters are typed for the on-screen one.
  const c = canvas.getContext('2d', { willReadFrequently: true }) as unknown as CanvasRenderingContext2D;
  const ratio = globalThis.devicePixelRatio || 1;
  c.setTransform(ratio, 0, 0, ratio, -fromPx * ratio, -rows.topPx * ratio);
  return c;
}

/**
 * Draws `bitmap` (painted for its own view) as it should look under `view`: plot x under the
 * bitmap's view maps to (x - tx0) * k / k0 + tx, a horizontal scale and shift.
 */
function blit(
  target: HTMLCanvasElement,
  bitmap: Bitmap,
  view: ZoomView,
  widthPx: number,
  heightPx: number,
  clipX: number,
): void {
  const c = target.getContext('2d');
  if (!c) return;
  const ratio = target.width / Math.max(1, widthPx);
  c.setTransform(ratio, 0, 0, ratio, 0, 0);
  c.clearRect(0, 0, widthPx, heightPx);
  c.save();
  c.beginPath();
  c.rect(0, 0, Math.max(0, Math.min(widthPx, clipX + 1)), heightPx);
  c.clip();
  // Only the part of the bitmap that lands on the plot is drawn: zoomed in, the whole bitmap
  // would be many times wider than the screen.
  const image = bitmap.canvas;
  const s = view.k / bitmap.view.k;
  const left = (bitmap.fromPx - bitmap.view.tx) * s + view.tx;
  const dx0 = Math.max(0, left);
  const dx1 = Math.min(widthPx, left + (bitmap.toPx - bitmap.fromPx) * s);
  const perPx = image.width / (bitmap.toPx - bitmap.fromPx);
  if (dx1 > dx0)
    c.drawImage(
      image,
      ((dx0 - left) / s) * perPx,
      0,
      ((dx1 - dx0) / s) * perPx,
      image.height,
      dx0,
      0,
      dx1 - dx0,
      heightPx,
    );
  c.restore();
}
