import type { Selection } from 'd3-selection';
import type { Lane } from '../modelTypes';
import { laneStripe, paper } from '../palette';
import { laneBands } from '../scales';
import type { RenderContext } from './context';

type G = Selection<SVGGElement, unknown, null, undefined>;

const roleWords: Record<Lane['role'], string> = {
  client: 'client',
  redis: 'Redis node',
  service: 'lock service',
  resource: 'resource',
  sentinel: 'sentinel',
  unknown: '',
};

/** A lane's name as one line, or two broken at a space, each at most `maxChars` long. */
export function nameLines(name: string, maxChars: number): [string] | [string, string] {
  if (name.length <= maxChars) return [name];
  const cut = (s: string) => (s.length > maxChars ? `${s.slice(0, maxChars - 1)}…` : s);
  const space = name.lastIndexOf(' ', maxChars);
  if (space <= 0) return [cut(name)];
  return [name.slice(0, space), cut(name.slice(space + 1))];
}

/** Lane stripes across the plot (they never move when zooming). */
export function drawLaneStripes(ctx: RenderContext, g: G): void {
  g.selectAll<SVGRectElement, Lane>('rect.tl-stripe')
    .data(ctx.model.lanes, (l) => l.id)
    .join('rect')
    .attr('class', 'tl-stripe')
    .attr('x', 0)
    .attr('width', ctx.layout.plotWidthPx)
    .attr('y', (l) => laneBands(ctx.layout, l).top)
    .attr('height', ctx.layout.laneHeightPx)
    .attr('fill', (l) => (l.index % 2 === 0 ? laneStripe : paper));
}

/** The label column: actor name, role, and the current state (filled in by updateLaneStates). */
export function drawLaneLabels(ctx: RenderContext, g: G): void {
  const rows = g
    .selectAll<SVGGElement, Lane>('g.tl-lane-label')
    .data(ctx.model.lanes, (l) => l.id)
    .join((enter) => {
      const row = enter.append('g').attr('class', 'tl-lane-label');
      row.append('rect').attr('class', 'tl-label-bg');
      row.append('rect').attr('class', 'tl-label-swatch');
      row.append('text').attr('class', 'tl-label-name');
      row.append('text').attr('class', 'tl-label-role');
      row.append('text').attr('class', 'tl-label-state');
      return row;
    })
    .attr('transform', (l) => `translate(0,${laneBands(ctx.layout, l).top})`);
  rows
    .select('rect.tl-label-bg')
    .attr('width', ctx.layout.labelWidthPx)
    .attr('height', ctx.layout.laneHeightPx)
    .attr('fill', (l) => (l.index % 2 === 0 ? laneStripe : paper));
  // Clients carry their owner colour as a small swatch so lease bars elsewhere can be matched.
  rows
    .select('rect.tl-label-swatch')
    .attr('x', 6)
    .attr('y', 10)
    .attr('width', 5)
    .attr('height', ctx.layout.laneHeightPx - 20)
    .attr('fill', (l) => (l.role === 'client' && !isGroup(ctx, l) ? ctx.colorOf(l.id) : 'none'));
  // A name too long for the column (a narrow screen) takes the role's line too, broken at a
  // space; only what still does not fit is cut. The full name is in the event list and tooltips.
  const maxChars = Math.floor((ctx.layout.labelWidthPx - 22) / 7.6);
  const lines = (l: Lane) => nameLines(l.label, maxChars);
  rows
    .select('text.tl-label-name')
    .attr('x', 16)
    .attr('y', 20)
    .text((l) => lines(l)[0]);
  rows
    .select('text.tl-label-role')
    .attr('x', 16)
    .attr('y', 35)
    .attr('class', (l) => (lines(l).length > 1 ? 'tl-label-role tl-label-name-cont' : 'tl-label-role'))
    .text((l) => lines(l)[1] ?? (isGroup(ctx, l) ? 'in one lane' : roleWords[l.role]));
  // Lines just rewritten: the next state update lays the state out afresh (updateLaneStates).
  rows.select<SVGTextElement>('text.tl-label-role').each(function () {
    roleWordOf.delete(this);
  });
  rows.select('text.tl-label-state').attr('x', 16).attr('y', 52).attr('data-full', null);
}

/**
 * Room kept free at the right of the role and state lines for the host's per-lane button (the
 * player's ⋯ menu sits there, 24 px tall, between the name and the lane's foot), so no state
 * is hidden under it.
 */
const MENU_RESERVE_PX = 34;

/** A role line's own words, kept while a long state borrows the line, to put back when it is short again. */
const roleWordOf = new WeakMap<Element, string>();

/** A state in two parts at a space: the first at most `firstMax` characters, the rest (cut at `restMax`) on its own line. */
function splitState(full: string, firstMax: number, restMax: number): [string | null, string] {
  const space = full.lastIndexOf(' ', firstMax);
  if (space <= 0) return [null, full];
  const rest = full.slice(space + 1);
  return [full.slice(0, space), rest.length > restMax ? `${rest.slice(0, restMax - 1)}…` : rest];
}

/**
 * Rewrites the state line of each label whose state changed (most steps change none or one).
 * A state too long for its line (a narrow screen) takes the role's line too, broken at a space,
 * when the name left that line free; only what still does not fit is cut with an ellipsis, and
 * then the whole of it is the line's tooltip.
 */
export function updateLaneStates(g: G, states: ReadonlyMap<string, string>, labelWidthPx: number): void {
  const maxChars = Math.floor((labelWidthPx - 22 - MENU_RESERVE_PX) / 6.3);
  g.selectAll<SVGGElement, Lane>('g.tl-lane-label').each(function (lane) {
    const stateLine = this.querySelector<SVGTextElement>('text.tl-label-state');
    const roleLine = this.querySelector<SVGTextElement>('text.tl-label-role');
    if (!stateLine || !roleLine) return;
    const s = states.get(lane.id) ?? '';
    const full = s === '' ? '' : `▸ ${s}`;
    if (stateLine.dataset.full === full) return;
    stateLine.dataset.full = full;
    if (!roleWordOf.has(roleLine)) roleWordOf.set(roleLine, roleLine.textContent ?? '');
    const roleFree = !roleLine.classList.contains('tl-label-name-cont');
    const [first, last] = full.length > maxChars && roleFree ? splitState(full, maxChars, maxChars) : [null, full];
    roleLine.textContent = first ?? roleWordOf.get(roleLine) ?? '';
    roleLine.classList.toggle('tl-label-state-cont', first !== null);
    const shown = last.length > maxChars ? `${last.slice(0, maxChars - 1)}…` : last;
    stateLine.textContent = shown;
    stateLine.querySelector('title')?.remove();
    if (shown.endsWith('…')) {
      const title = this.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'title');
      title.textContent = s;
      stateLine.appendChild(title);
    }
  });
}

/** A summary lane standing for several folded ones (laneGroups.ts). */
function isGroup(ctx: RenderContext, lane: Lane): boolean {
  return ctx.model.groups.some((g) => g.id === lane.id);
}
