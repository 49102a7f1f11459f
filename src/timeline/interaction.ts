import { describeEvent, eventDetailRows } from './describeEvent';
import { hitTestDense } from './layers/denseCanvas';
import type { Band } from './layers/intervals';
import type { Glyph } from './layers/marks';
import { markInfo } from './markInfo';
import type { Interval, MessageMark } from './modelTypes';
import type { TimelineState } from './timelineState';
import { hideTooltip, showTooltip } from './tooltip';

interface Actions {
  zoomBy(factor: number): void;
  panByPx(dx: number): void;
  fit(): void;
}

const MARK_SELECTOR = '.tl-mark:not(.tl-future)';

/** The time span a mark covers, read from its bound datum. */
function spanOf(el: Element): [number, number] {
  const d = (el as Element & { __data__?: Glyph | Interval | Band | MessageMark }).__data__;
  if (!d) return [0, 0];
  if ('at' in d) return [d.at, d.at];
  return [d.startMs, d.endMs];
}

/**
 * Keyboard, pointer and focus behaviour. The svg itself is one tab stop (zoom and pan keys);
 * the marks are a second, roving one: exactly one mark is tabbable and arrows move between
 * marks in time order, so a 10,000-mark run never means 10,000 tab stops.
 * Returns a function that removes every listener.
 */
export function attachInteraction(state: TimelineState, actions: Actions): () => void {
  const svg = state.svg;
  let roving: Element | null = null;

  const marks = () =>
    Array.from(svg.querySelectorAll(MARK_SELECTOR))
      .map((el) => ({ el, span: spanOf(el) }))
      .sort((a, b) => a.span[0] - b.span[0] || a.span[1] - b.span[1])
      .map((m) => m.el);

  const setRoving = (el: Element | null) => {
    if (roving && roving !== el) roving.setAttribute('tabindex', '-1');
    roving = el;
    roving?.setAttribute('tabindex', '0');
  };

  /** Makes sure some visible mark is the roving tab stop (the first accepted/rejected write if any). */
  const ensureRoving = () => {
    if (roving && roving.isConnected && !roving.classList.contains('tl-future')) return;
    const first = svg.querySelector(`.tl-glyph${MARK_SELECTOR}`) ?? svg.querySelector(MARK_SELECTOR);
    setRoving(first);
  };

  const tooltip = (el: Element, clientX?: number) => {
    const ctx = state.ctx;
    if (!ctx) return;
    const info = markInfo(ctx, el, state.view.cursorMs);
    if (!info) return;
    const svgBox = svg.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    // The part of the mark in view (a long bar runs on under the labels and off the right edge).
    const x0 = Math.max(box.left - svgBox.left, ctx.layout.labelWidthPx);
    const x1 = Math.max(x0 + 1, Math.min(box.right - svgBox.left, ctx.layout.labelWidthPx + ctx.layout.plotWidthPx));
    const mark = { x0, y0: box.top - svgBox.top, x1, y1: box.bottom - svgBox.top };
    showTooltip(state.groups.tooltip, info, mark, clientX === undefined ? null : clientX - svgBox.left, ctx.layout.width, ctx.layout.height);
  };

  const panIntoView = (el: Element) => {
    const ctx = state.ctx;
    if (!ctx) return;
    const [s, e] = spanOf(el);
    const { k, x } = state.transform;
    const xs = ctx.x0(s) * k + x;
    const xe = ctx.x0(e) * k + x;
    const w = ctx.layout.plotWidthPx;
    if (xe < 0 || xs > w) actions.panByPx(w * 0.3 - xs);
  };

  const select = (el: Element) => {
    const ctx = state.ctx;
    const info = ctx ? markInfo(ctx, el, state.view.cursorMs) : null;
    if (info) state.view.onSelect?.(info.eventId);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as Element;
    const onMark = target !== svg && target.classList.contains('tl-mark');
    let handled = true;
    if (event.key === '+' || event.key === '=') actions.zoomBy(1.5);
    else if (event.key === '-' || event.key === '_') actions.zoomBy(1 / 1.5);
    else if (event.key === '0') actions.fit();
    else if (onMark && (event.key === 'Enter' || event.key === ' ')) select(target);
    else if (onMark && event.key === 'Escape') {
      hideTooltip(state.groups.tooltip);
      svg.focus();
    } else if (onMark && ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(event.key)) {
      const list = marks();
      const i = list.indexOf(target);
      const next =
        event.key === 'Home' ? list[0] : event.key === 'End' ? list.at(-1) : list[Math.max(0, Math.min(list.length - 1, i + (event.key === 'ArrowLeft' || event.key === 'ArrowUp' ? -1 : 1)))];
      if (next && next !== target) {
        setRoving(next);
        panIntoView(next);
        (next as SVGElement).focus();
      }
    } else if (!onMark && event.key === 'ArrowLeft') actions.panByPx(80);
    else if (!onMark && event.key === 'ArrowRight') actions.panByPx(-80);
    else handled = false;
    if (handled) event.preventDefault();
  };

  const onFocusIn = (event: FocusEvent) => {
    const target = event.target as Element;
    if (target === svg) {
      ensureRoving();
      return;
    }
    if (!target.classList.contains('tl-mark')) return;
    setRoving(target);
    const ctx = state.ctx;
    const info = ctx ? markInfo(ctx, target, state.view.cursorMs) : null;
    // The accessible name is written on focus so it always describes the run as of the playhead.
    if (info) target.setAttribute('aria-label', info.headline);
    tooltip(target);
  };

  const onPointerOver = (event: PointerEvent) => {
    const el = (event.target as Element).closest('.tl-mark, .tl-msg');
    if (el) tooltip(el, event.clientX);
  };
  const onPointerOut = (event: PointerEvent) => {
    const el = (event.target as Element).closest('.tl-mark, .tl-msg');
    if (el && !el.contains(event.relatedTarget as Node | null)) hideTooltip(state.groups.tooltip);
  };
  const onFocusOut = () => hideTooltip(state.groups.tooltip);

  /** On a heavy run's canvas: the event under the pointer, by geometry (there is no element to hit). */
  const canvasHit = (event: MouseEvent): { id: number; x: number; y: number } | null => {
    const ctx = state.ctx;
    if (!state.heavy || !ctx || (event.target as Element).closest('.tl-mark')) return null;
    const box = svg.getBoundingClientRect();
    const px = event.clientX - box.left - ctx.layout.labelWidthPx;
    const py = event.clientY - box.top - ctx.layout.axisHeightPx;
    if (px < 0 || py < 0 || px > ctx.layout.plotWidthPx) return null;
    const { k, x } = state.transform;
    const id = hitTestDense(ctx, state.heavy, (ms) => ctx.x0(ms) * k + x, px, py, state.view.cursorId ?? Infinity);
    return id === null ? null : { id, x: event.clientX - box.left, y: event.clientY - box.top };
  };
  const onPointerMove = (event: PointerEvent) => {
    const ctx = state.ctx;
    if (!state.heavy || !ctx) return;
    const hit = canvasHit(event);
    const e = hit ? ctx.model.eventById.get(hit.id) : undefined;
    if (!hit || !e) {
      if (!(event.target as Element).closest('.tl-mark')) hideTooltip(state.groups.tooltip);
      return;
    }
    const mark = { x0: hit.x - 6, y0: hit.y - 6, x1: hit.x + 6, y1: hit.y + 6 };
    showTooltip(state.groups.tooltip, { eventId: hit.id, headline: describeEvent(e, ctx.labelOf), rows: eventDetailRows(e, ctx.labelOf) }, mark, hit.x, ctx.layout.width, ctx.layout.height);
  };
  const onClick = (event: MouseEvent) => {
    const el = (event.target as Element).closest('.tl-mark, .tl-msg');
    const hit = el ? null : canvasHit(event);
    if (hit) state.view.onSelect?.(hit.id);
    if (!el) return;
    if (el.classList.contains('tl-mark')) {
      setRoving(el);
      (el as SVGElement).focus();
    }
    select(el);
  };

  svg.addEventListener('keydown', onKeyDown);
  svg.addEventListener('focusin', onFocusIn);
  svg.addEventListener('focusout', onFocusOut);
  svg.addEventListener('pointerover', onPointerOver);
  svg.addEventListener('pointerout', onPointerOut);
  svg.addEventListener('pointermove', onPointerMove);
  svg.addEventListener('click', onClick);
  return () => {
    svg.removeEventListener('keydown', onKeyDown);
    svg.removeEventListener('focusin', onFocusIn);
    svg.removeEventListener('focusout', onFocusOut);
    svg.removeEventListener('pointerover', onPointerOver);
    svg.removeEventListener('pointerout', onPointerOut);
    svg.removeEventListener('pointermove', onPointerMove);
    svg.removeEventListener('click', onClick);
  };
}
