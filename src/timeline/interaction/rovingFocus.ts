import type { Band } from '../layers/intervals';
import type { Glyph } from '../layers/glyphShapes';
import type { Interval, MessageMark } from '../modelTypes';

/** Marks drawn up to the playhead: the ones a learner can reach. */
const MARK_SELECTOR = '.tl-mark:not(.tl-future)';

/** The time span a mark covers, read from its bound datum. */
export function spanOf(el: Element): [number, number] {
  const d = (el as Element & { __data__?: Glyph | Interval | Band | MessageMark }).__data__;
  if (!d) return [0, 0];
  if ('at' in d) return [d.at, d.at];
  return [d.startMs, d.endMs];
}

/**
 * The marks' one tab stop. Exactly one mark is tabbable and the arrows move it between marks in
 * time order, so a 10,000-mark run never means 10,000 tab stops.
 */
export function rovingFocus(svg: SVGSVGElement) {
  let roving: Element | null = null;

  const set = (el: Element | null) => {
    if (roving && roving !== el) roving.setAttribute('tabindex', '-1');
    roving = el;
    roving?.setAttribute('tabindex', '0');
  };

  /** Makes sure some visible mark is the tab stop (the first accepted or rejected write, if any). */
  const ensure = () => {
    if (roving && roving.isConnected && !roving.classList.contains('tl-future')) return;
    set(svg.querySelector(`.tl-glyph${MARK_SELECTOR}`) ?? svg.querySelector(MARK_SELECTOR));
  };

  /** The mark `to` of `from` in time order (ties by end), or undefined when there is none. */
  const neighbour = (from: Element, to: 'first' | 'last' | 'previous' | 'next'): Element | undefined => {
    const list = Array.from(svg.querySelectorAll(MARK_SELECTOR))
      .map((el) => ({ el, span: spanOf(el) }))
      .sort((a, b) => a.span[0] - b.span[0] || a.span[1] - b.span[1])
      .map((m) => m.el);
    if (to === 'first') return list[0];
    if (to === 'last') return list.at(-1);
    const i = list.indexOf(from);
    return list[Math.max(0, Math.min(list.length - 1, i + (to === 'previous' ? -1 : 1)))];
  };

  return { set, ensure, neighbour };
}
