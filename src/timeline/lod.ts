/**
 * Level of detail for crowded canvases. Zoomed far out, thousands of marks share a pixel column:
 * drawing each one costs time and shows nothing more than drawing their union once.
 */

/**
 * Merges rectangles (flat x, y, width, height quadruples, in order of x within each row) that
 * sit on the same row (same y and height) and start less than `gapPx` after the previous one on
 * that row ended. Returns the merged quadruples, in the order their first part came.
 * @example mergeRects([0, 5, 10, 4, 10.5, 5, 3, 4]) // [0, 5, 13.5, 4]
 */
export function mergeRects(quads: readonly number[], gapPx = 1): number[] {
  const out: number[] = [];
  const lastByRow = new Map<number, number>();
  for (let i = 0; i + 3 < quads.length; i += 4) {
    const x = quads[i]!;
    const y = quads[i + 1]!;
    const w = quads[i + 2]!;
    const h = quads[i + 3]!;
    const row = y * 65_536 + h;
    const j = lastByRow.get(row);
    if (j !== undefined && x < out[j]! + out[j + 2]! + gapPx) {
      out[j + 2] = Math.max(out[j + 2]!, x + w - out[j]!);
      continue;
    }
    lastByRow.set(row, out.length);
    out.push(x, y, w, h);
  }
  return out;
}

/**
 * A key for "the same picture at this pixel": marks that round to the same pixels on the same
 * rows (and `variant`, e.g. dropped or not) get the same number, so each is drawn once.
 */
export function pixelKey(x1: number, y1: number, x2: number, y2: number, variant: number): number {
  return (
    ((((Math.round(x1) + 4096) * 8192 + Math.round(x2) + 4096) * 64 + Math.round(y1 / 8)) * 64 + Math.round(y2 / 8)) *
      8 +
    variant
  );
}
