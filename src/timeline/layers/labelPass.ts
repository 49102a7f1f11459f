import type { RenderContext } from './context';
import { overlaps, placeLabels, textBox, type Box, type LabelRequest } from './labelLayout';
import { moveCaption, type PlacedCaption } from './labels';
import {
  glyphLabelBoxes,
  glyphShapeBoxes,
  moveGlyphLabels,
  setShown,
  showGlyphLabels,
  type PlacedGlyph,
} from './marks';

/** Which captions win a place first: the broken invariant, then what the lanes are about. */
const CAPTION_ORDER: Record<PlacedCaption['caption']['slot'], number> = {
  region: 0,
  main: 1,
  top: 2,
  foot: 3,
  regionFoot: 4,
};

/** How far a write's labels may move left of their mark and still read as its labels. */
const WRITE_LABEL_SLIDE_PX = 32;

const shift = (b: Box, dx: number, dy: number): Box => ({ x0: b.x0 + dx, y0: b.y0 + dy, x1: b.x1 + dx, y1: b.y1 + dy });

/**
 * The last step of every frame: moves captions and glyph labels so that no label covers another
 * or a mark's shape (a verdict's triangle, a write's circle). Marks never move; labels are
 * placed by importance (a write's token and writer, a broken invariant's caption, the lanes'
 * bars, the small marks' words), each sliding right within its own interval, or hidden.
 * Runs over every label, happened or not, so none jumps while the playhead moves.
 */
export function layoutLabels(
  ctx: RenderContext,
  captions: readonly PlacedCaption[],
  glyphs: readonly PlacedGlyph[],
): void {
  // A sentinel's passing doubt ("SDOWN", "up again") gives way to a failover's stages: on a phone
  // a restart's doubts three seconds later sit under the failover's words; zoomed in they show.
  const yields = (g: PlacedGlyph) => g.glyph.kind === 'sentinel' && !g.key;
  const shapeBoxes = (g: PlacedGlyph) => glyphShapeBoxes(g.glyph).map((b) => shift(b, g.px, g.py));
  const obstacles = glyphs.filter((g) => !yields(g)).flatMap(shapeBoxes);
  // The writes the run is about first, so a crowded phone-width plot keeps their token and writer.
  const writes = glyphs
    .filter((g) => g.labelled && g.glyph.kind === 'write')
    .sort((a, b) => Number(b.key ?? false) - Number(a.key ?? false));
  // Among the small marks, a sentinel's failover stages (key) come before the captions, which can
  // slide along their interval where a mark's words cannot move; the rest after them, in time order.
  const smallMarks = glyphs.filter((g) => g.labelled && g.glyph.kind !== 'write');
  const keyPoints = smallMarks.filter((g) => g.key);
  const points = [...keyPoints, ...smallMarks.filter((g) => !g.key)];
  const ordered = [...captions].sort((a, b) => CAPTION_ORDER[a.caption.slot] - CAPTION_ORDER[b.caption.slot]);
  // A write's token and writer may step a little aside (a verdict's triangle sits just right of
  // the write it flags); a small mark's label stays put.
  const glyphRequest = (g: PlacedGlyph): LabelRequest => ({
    boxes: glyphLabelBoxes(g.glyph, ctx.labelOf).map((b) => shift(b, g.px, g.py)),
    slideMaxPx: 0,
    slideLeftMaxPx: g.glyph.kind === 'write' ? WRITE_LABEL_SLIDE_PX : 0,
  });
  const captionRequests = ordered.map((c) => ({
    boxes: [textBox(c.x, c.y, c.caption.text)],
    slideMaxPx: Math.max(0, c.maxX - c.x),
  }));
  const k = keyPoints.length;
  const placed = placeLabels(obstacles, [
    ...writes.map(glyphRequest),
    ...keyPoints.map(glyphRequest),
    ...captionRequests,
    ...points.slice(k).map(glyphRequest),
  ]);
  const at = writes.length;
  // Where each small mark's placement is in `placed`: the key ones before the captions, the rest after.
  const pointPlaced = (i: number) => placed[i < k ? at + i : at + ordered.length + i];
  writes.forEach((g, i) => moveGlyphLabels(g.el, placed[i] ?? null));
  ordered.forEach((c, i) => moveCaption(c, placed[at + k + i] ?? null));
  points.forEach((g, i) => showGlyphLabels(g.el, pointPlaced(i) !== null));
  for (const g of glyphs) if (!g.labelled) showGlyphLabels(g.el, false);
  const stageWords = points.flatMap((g, i) => {
    const dx = pointPlaced(i);
    return g.key && g.glyph.kind === 'sentinel' && dx !== null && dx !== undefined
      ? glyphRequest(g).boxes.map((b) => shift(b, dx, 0))
      : [];
  });
  for (const g of glyphs.filter(yields)) {
    if (stageWords.some((b) => shapeBoxes(g).some((shape) => overlaps(b, shape)))) setShown(g.el, false);
  }
}
