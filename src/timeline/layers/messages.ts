import type { Selection } from 'd3-selection';
import type { MessageMark } from '../modelTypes';
import { ink, inkMuted, okabeIto } from '../palette';
import { laneBands } from '../scales';
import type { RenderContext, XOf } from './context';

type G = Selection<SVGGElement, unknown, null, undefined>;

/**
 * Where an arrow starts and ends vertically. A message the network lost stops halfway, at its
 * cross; one sent to a crashed process reaches that process's lane and is crossed there, so the
 * PINGs to a dead primary end on the primary, not as crosses on the lanes between.
 */
export function messageYs(ctx: RenderContext, m: MessageMark): [number, number] | null {
  const from = ctx.lane(m.from);
  const to = ctx.lane(m.to);
  if (!from || !to) return null;
  const y0 = laneBands(ctx.layout, from).mid;
  const yTo = laneBands(ctx.layout, to).mid;
  // Arrows stop just short of the receiving lane's centre so heads do not hide marks there.
  const y1 = m.fate === 'dropped' ? (m.dropReason === 'crashed' ? yTo : (y0 + yTo) / 2) : yTo - Math.sign(yTo - y0) * 6;
  return [y0, y1];
}

/**
 * Stroke style per kind of arrow: colour plus a dash pattern, so colour is never the only cue.
 * A crossed arrow's cross is `crossColor`: vermillion for a loss in the network, ink for a
 * message that reached a crashed process (nothing went wrong on the way).
 */
export function messageStyle(m: MessageMark): {
  color: string;
  dash: string | null;
  widthPx: number;
  crossColor?: string;
} {
  if (m.channel === 'request') return { color: ink, dash: '5 3', widthPx: 1.5 };
  if (m.fate === 'dropped' && m.dropReason === 'crashed')
    return { color: inkMuted, dash: '3 2', widthPx: 1.2, crossColor: ink };
  if (m.fate === 'dropped')
    return { color: okabeIto.vermillion, dash: '3 2', widthPx: 1.5, crossColor: okabeIto.vermillion };
  if (m.fate === 'inFlight') return { color: inkMuted, dash: '1 3', widthPx: 1.5 };
  if (m.fate === 'duplicate') return { color: okabeIto.reddishPurple, dash: '6 2 1 2', widthPx: 1.5 };
  return { color: inkMuted, dash: null, widthPx: 1.2 };
}

/**
 * Joins message arrows by key (the id of the event that ended them). A kept arrow may stand for
 * another message once the run changes (a learner's action renumbers the events after it), so
 * every attribute is set anew, or removed: a dropped message's dashes and cross must not stay on
 * the delivered one that takes its key.
 */
export function drawMessages(ctx: RenderContext, g: G): void {
  g.selectAll<SVGGElement, MessageMark>('g.tl-msg')
    .data(ctx.model.messages, (m) => m.key)
    .join((enter) => {
      const msg = enter.append('g').attr('class', 'tl-msg');
      msg.append('line');
      return msg;
    })
    .attr('data-id', (m) => m.sendId)
    .each(function (m) {
      const style = messageStyle(m);
      const line = this.firstElementChild as SVGLineElement;
      line.setAttribute('stroke', style.color);
      line.setAttribute('stroke-width', String(style.widthPx));
      if (style.dash) line.setAttribute('stroke-dasharray', style.dash);
      else line.removeAttribute('stroke-dasharray');
      if (m.fate !== 'dropped' && m.fate !== 'inFlight')
        line.setAttribute('marker-end', `url(#${ctx.prefix}-${m.channel === 'request' ? 'arrow-request' : 'arrow'})`);
      else line.removeAttribute('marker-end');
      let cross = this.querySelector('path.tl-cross');
      if (m.fate !== 'dropped') return void cross?.remove();
      if (!cross) {
        cross = this.appendChild(this.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'path'));
        cross.setAttribute('class', 'tl-cross');
        cross.setAttribute('d', 'M-5,-5L5,5M-5,5L5,-5');
      }
      cross.setAttribute('stroke', style.crossColor ?? okabeIto.vermillion);
      cross.setAttribute('stroke-width', '2.5');
    });
}

/** Moves every arrow for the current zoom: one line (and maybe a cross) each. */
export function positionMessages(ctx: RenderContext, g: G, x: XOf): void {
  g.selectAll<SVGGElement, MessageMark>('g.tl-msg').each(function (m) {
    const ys = messageYs(ctx, m);
    if (!ys) return;
    const line = this.firstElementChild as SVGLineElement;
    const x1 = x(m.startMs);
    const x2 = x(m.endMs);
    line.setAttribute('x1', String(x1));
    line.setAttribute('y1', String(ys[0]));
    line.setAttribute('x2', String(x2));
    line.setAttribute('y2', String(ys[1]));
    const cross = this.lastElementChild;
    if (cross && cross !== line) cross.setAttribute('transform', `translate(${x2},${ys[1]})`);
  });
}
