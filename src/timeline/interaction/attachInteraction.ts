import { describeEvent, eventDetailRows } from '../describeEvent';
import { markInfo } from '../markInfo';
import type { TimelineState } from '../timelineState';
import { hideTooltip, showTooltip } from '../tooltip';
import { canvasHit } from './canvasHit';
import { keyCommand } from './keyMap';
import { rovingFocus, spanOf } from './rovingFocus';

interface Actions {
  zoomBy(factor: number): void;
  panByPx(dx: number): void;
  fit(): void;
}

/**
 * Keyboard, pointer and focus behaviour. The svg itself is one tab stop (zoom and pan keys, see
 * keyMap.ts); the marks are a second, roving one (rovingFocus.ts). Returns a function that removes
 * every listener.
 */
export function attachInteraction(state: TimelineState, actions: Actions): () => void {
  const svg = state.svg;
  const roving = rovingFocus(svg);
  const infoOf = (el: Element) => (state.ctx ? markInfo(state.ctx, el, state.view.cursorMs) : null);

  const tooltip = (el: Element, clientX?: number) => {
    const ctx = state.ctx;
    const info = infoOf(el);
    if (!ctx || !info) return;
    const svgBox = svg.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    // The part of the mark in view (a long bar runs on under the labels and off the right edge).
    const x0 = Math.max(box.left - svgBox.left, ctx.layout.labelWidthPx);
    const x1 = Math.max(x0 + 1, Math.min(box.right - svgBox.left, ctx.layout.labelWidthPx + ctx.layout.plotWidthPx));
    const mark = { x0, y0: box.top - svgBox.top, x1, y1: box.bottom - svgBox.top };
    showTooltip(
      state.groups.tooltip,
      info,
      mark,
      clientX === undefined ? null : clientX - svgBox.left,
      ctx.layout.width,
      ctx.layout.height,
    );
  };

  /** Pans a mark that focus moved to off screen back into the plot, 30% from its left edge. */
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
    const info = infoOf(el);
    if (info) state.view.onSelect?.(info.eventId);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as Element;
    const command = keyCommand(event.key, target !== svg && target.classList.contains('tl-mark'));
    if (!command) return;
    event.preventDefault();
    if (command.kind === 'zoom') actions.zoomBy(command.factor);
    else if (command.kind === 'fit') actions.fit();
    else if (command.kind === 'pan') actions.panByPx(command.dxPx);
    else if (command.kind === 'select') select(target);
    else if (command.kind === 'leave') {
      hideTooltip(state.groups.tooltip);
      svg.focus();
    } else {
      const next = roving.neighbour(target, command.to);
      if (!next || next === target) return;
      roving.set(next);
      panIntoView(next);
      (next as SVGElement).focus();
    }
  };

  const onFocusIn = (event: FocusEvent) => {
    const target = event.target as Element;
    if (target === svg) return roving.ensure();
    if (!target.classList.contains('tl-mark')) return;
    roving.set(target);
    // The accessible name is written on focus so it always describes the run as of the playhead.
    const info = infoOf(target);
    if (info) target.setAttribute('aria-label', info.headline);
    tooltip(target);
  };
  const onFocusOut = () => hideTooltip(state.groups.tooltip);

  const onPointerOver = (event: PointerEvent) => {
    const el = (event.target as Element).closest('.tl-mark, .tl-msg');
    if (el) tooltip(el, event.clientX);
  };
  const onPointerOut = (event: PointerEvent) => {
    const el = (event.target as Element).closest('.tl-mark, .tl-msg');
    if (el && !el.contains(event.relatedTarget as Node | null)) hideTooltip(state.groups.tooltip);
  };
  const onPointerMove = (event: PointerEvent) => {
    const ctx = state.ctx;
    if (!state.heavy || !ctx) return;
    const hit = canvasHit(state, event);
    const e = hit ? ctx.model.eventById.get(hit.id) : undefined;
    if (!hit || !e) {
      if (!(event.target as Element).closest('.tl-mark')) hideTooltip(state.groups.tooltip);
      return;
    }
    const mark = { x0: hit.x - 6, y0: hit.y - 6, x1: hit.x + 6, y1: hit.y + 6 };
    showTooltip(
      state.groups.tooltip,
      { eventId: hit.id, headline: describeEvent(e, ctx.labelOf), rows: eventDetailRows(e, ctx.labelOf) },
      mark,
      hit.x,
      ctx.layout.width,
      ctx.layout.height,
    );
  };
  const onClick = (event: MouseEvent) => {
    const el = (event.target as Element).closest('.tl-mark, .tl-msg');
    if (!el) {
      const hit = canvasHit(state, event);
      if (hit) state.view.onSelect?.(hit.id);
      return;
    }
    if (el.classList.contains('tl-mark')) {
      roving.set(el);
      (el as SVGElement).focus();
    }
    select(el);
  };

  const listeners = [
    ['keydown', onKeyDown],
    ['focusin', onFocusIn],
    ['focusout', onFocusOut],
    ['pointerover', onPointerOver],
    ['pointerout', onPointerOut],
    ['pointermove', onPointerMove],
    ['click', onClick],
  ] as const;
  for (const [type, listener] of listeners) svg.addEventListener(type, listener as EventListener);
  return () => {
    for (const [type, listener] of listeners) svg.removeEventListener(type, listener as EventListener);
  };
}
