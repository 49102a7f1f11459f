import type { Selection } from 'd3-selection';
import { laneBands } from '../scales';
import type { RenderContext, XOf } from './context';
import { textBox, type Box } from './labelLayout';
import { isFailoverBurst } from '../sentinelStages';
import { drawShape, isPointGlyph, pointLines, STAGE_LABEL_X, TOKEN_Y_PX, type Glyph } from './glyphShapes';

type G = Selection<SVGGElement, unknown, null, undefined>;

/** The glyphs of a model. A verdict's id is its last proving event, so it appears with it. */
export function glyphsOf(ctx: RenderContext): Glyph[] {
  // Shapes are drawn once, when a glyph enters; so a key names what the shape shows, not just
  // the event id (after a learner action the same id can be a different write in the new run).
  const out: Glyph[] = ctx.model.writes.map((w) => ({
    key: `w${w.id}|${w.owner}|${w.accepted}|${w.token}`,
    kind: 'write' as const,
    id: w.id,
    lane: w.lane,
    at: w.at,
    write: w,
  }));
  for (const p of ctx.model.points) {
    if (isPointGlyph(p.kind))
      out.push({
        key: `p${p.id}|${p.kind}|${p.lane}|${p.label}`,
        kind: p.kind,
        id: p.id,
        lane: p.lane,
        at: p.at,
        point: p,
      });
  }
  for (const v of ctx.model.violations) {
    out.push({
      key: v.key,
      kind: 'verdict',
      id: Math.max(-1, ...v.eventIds),
      lane: v.markerLane,
      at: v.atMs,
      violation: v,
    });
  }
  return out;
}

/** Joins glyphs by key and draws each shape once; zooming only moves them. */
export function drawGlyphs(ctx: RenderContext, g: G, glyphs: Glyph[]): void {
  g.selectAll<SVGGElement, Glyph>('g.tl-glyph')
    .data(glyphs, (d) => d.key)
    .join((enter) =>
      enter
        .append('g')
        .attr('class', (d) => `tl-glyph tl-mark tl-${d.kind}`)
        .each(function (d) {
          drawShape(this, d, ctx);
        }),
    )
    .attr('data-id', (d) => d.id);
}

/** The y of a glyph inside its lane. */
function glyphY(ctx: RenderContext, d: Glyph): number {
  const lane = ctx.lane(d.lane);
  if (!lane) return 0;
  const bands = laneBands(ctx.layout, lane);
  if (d.kind === 'verdict' && d.lane !== d.violation.markerLane) return bands.mid;
  if (d.kind === 'clockJump' || d.kind === 'restart' || d.kind === 'timeout' || d.kind === 'late')
    return bands.ticks[0];
  if (d.kind === 'role' || d.kind === 'sync') return bands.projection[0] + 2;
  return bands.mid;
}

/** A glyph on screen: where it sits (plot px) and whether it still shows its text labels. */
export interface PlacedGlyph {
  el: SVGGElement;
  glyph: Glyph;
  px: number;
  py: number;
  labelled: boolean;
  /** A mark the run is about (a refused write, proof of a broken invariant, a failover's stages): its labels are placed first. */
  key?: boolean;
}

/**
 * Whether glyph `d` is the run's point: a refused write, or one a broken invariant's proof
 * names, or a sentinel's failover stages (the lessons ask the learner to follow them).
 */
function isKeyMark(d: Glyph, proof: ReadonlySet<number>): boolean {
  if (d.kind === 'sentinel') return isFailoverBurst(d.point);
  return d.kind === 'write' && (!d.write.accepted || proof.has(d.id));
}

/**
 * Moves glyphs for the current zoom: one transform write each for those on screen. Glyphs off
 * screen are hidden once and then skipped, which keeps big runs inside a frame when zoomed in.
 * Returns the glyphs on screen, for the label pass (labelPass.ts).
 */
export function positionGlyphs(ctx: RenderContext, g: G, x: XOf): PlacedGlyph[] {
  const w = ctx.layout.plotWidthPx;
  const placed: PlacedGlyph[] = [];
  // Labels are dropped where glyphs crowd together, so the ones shown stay readable.
  const labelled = new Map<SVGGElement, boolean>();
  const rows = new Map<string, { el: SVGGElement; px: number; d: Glyph }[]>();
  const proof = new Set(ctx.model.violations.flatMap((v) => v.eventIds));
  g.selectAll<SVGGElement, Glyph>('g.tl-glyph').each(function (d) {
    // Verdicts sit a little right of the write they flag, or left of it at the plot's right edge.
    const px = d.kind === 'verdict' ? (x(d.at) + 22 <= w - 14 ? x(d.at) + 22 : x(d.at) - 22) : x(d.at);
    const onScreen = px > -40 && px < w + 40;
    setShown(this, onScreen);
    if (!onScreen) return;
    this.setAttribute('transform', `translate(${px},${glyphY(ctx, d)})`);
    placed.push({
      el: this,
      glyph: d,
      px,
      py: glyphY(ctx, d),
      labelled: d.kind === 'clockJump',
      key: isKeyMark(d, proof),
    });
    if (d.kind === 'verdict' || d.kind === 'clockJump' || d.kind === 'restart') return;
    const row = `${d.lane}|${d.kind === 'write' ? 'w' : glyphY(ctx, d)}`;
    const list = rows.get(row) ?? [];
    list.push({ el: this, px, d });
    rows.set(row, list);
  });
  // Labels are spaced per lane and per row. Glyphs a few pixels apart read as one cluster: only
  // its first glyph may carry a label, and only when the next cluster along the row would not
  // sit under that label.
  for (const list of rows.values()) {
    list.sort((a, b) => a.px - b.px);
    let lastPx = -Infinity;
    for (let n = 0; n < list.length;) {
      let end = n + 1;
      while (end < list.length && list[end]!.px - list[end - 1]!.px < CLUSTER_PX) end++;
      const { el, px, d } = list[n]!;
      const next = list[end]?.px ?? Infinity;
      const labelPx = d.kind === 'write' ? 0 : 14 + labelText(d).length * 6.4;
      // A key write always asks for its labels (on a phone the two writes of a double write sit
      // closer than 64 px); the label pass places them first and hides what they would cover.
      const roomy = isKeyMark(d, proof) || (px - lastPx > (d.kind === 'write' ? 64 : 110) && next - px > labelPx);
      if (roomy) lastPx = px;
      labelled.set(el, roomy);
      for (let m = n + 1; m < end; m++)
        labelled.set(list[m]!.el, isKeyMark(list[m]!.d, proof) || (d.kind === 'write' && list[m]!.px - px > 64));
      n = end;
    }
  }
  for (const p of placed) p.labelled = labelled.get(p.el) ?? p.labelled;
  return placed;
}

/**
 * The text lines a glyph writes beside itself, as boxes relative to its centre: a write's token
 * above and writer below, a point glyph's label to its right. A verdict and a restart write none.
 */
export function glyphLabelBoxes(d: Glyph, labelOf: (id: string) => string): Box[] {
  if (d.kind === 'write') {
    const token = d.write.token === null ? 'no token' : `token ${d.write.token}`;
    return [
      textBox(0, TOKEN_Y_PX, d.write.accepted ? token : `${token} ✕`, 'middle'),
      textBox(0, 22, labelOf(d.write.owner), 'middle'),
    ];
  }
  if (d.kind === 'verdict' || d.kind === 'restart') return [];
  const x = d.kind === 'clockJump' ? 10 : d.kind === 'sentinel' ? STAGE_LABEL_X : 11;
  return pointLines(d.point).map((line) => textBox(x, line.y, line.text));
}

/**
 * The part of a glyph no label may cover (its shape), relative to its centre. A verdict's
 * triangle is two boxes, its narrow tip and its wide base: one box round it all would also claim
 * the empty corners beside the tip, where the token of the write it flags goes on a phone.
 */
export function glyphShapeBoxes(d: Glyph): Box[] {
  if (d.kind === 'verdict')
    return [
      { x0: -6, y0: -15, x1: 6, y1: -4 },
      { x0: -14, y0: -4, x1: 14, y1: 10 },
    ];
  return [{ x0: -9, y0: -9, x1: 9, y1: 9 }];
}

/** Shows a write's labels shifted by `dx` px from its mark, or hides them (null). */
export function moveGlyphLabels(el: SVGGElement, dx: number | null): void {
  setLabelled(el, dx !== null);
  if (dx === null) return;
  for (const text of el.querySelectorAll('text.tl-token'))
    if (text.getAttribute('x') !== String(dx)) text.setAttribute('x', String(dx));
}

/** Shows or hides a glyph's text labels (the label pass has the last word). */
export function showGlyphLabels(el: SVGGElement, shown: boolean): void {
  setLabelled(el, shown);
}

/** Glyphs closer than this read as one cluster. */
const CLUSTER_PX = 12;

/** The text a point glyph writes beside itself. */
function labelText(d: Glyph): string {
  if (d.kind === 'write' || d.kind === 'verdict') return '';
  return (d.point.lines ?? [d.point.label]).reduce((a, b) => (b.length > a.length ? b : a), '');
}

/** Shows or hides a glyph's text labels, touching the DOM only when that changes. */
function setLabelled(el: Element & { __labelled?: boolean }, labelled: boolean): void {
  if (el.__labelled === labelled) return;
  el.__labelled = labelled;
  el.classList.toggle('tl-unlabelled', !labelled);
}

/** Shows or hides an element, touching the DOM only when that changes. */
export function setShown(el: Element & { __shown?: boolean }, shown: boolean): void {
  if (el.__shown === shown) return;
  el.__shown = shown;
  // display (not visibility) takes hidden marks out of layout, which is most of a zoom frame's cost.
  if (shown) el.removeAttribute('display');
  else el.setAttribute('display', 'none');
}
