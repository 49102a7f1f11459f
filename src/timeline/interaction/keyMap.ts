/** What a key press asks of the timeline: the svg's own keys, or the keys of a focused mark. */
export type KeyCommand =
  | { kind: 'zoom'; factor: number }
  | { kind: 'fit' }
  | { kind: 'pan'; dxPx: number }
  | { kind: 'select' }
  | { kind: 'leave' }
  | { kind: 'move'; to: 'first' | 'last' | 'previous' | 'next' };

const ZOOM_STEP = 1.5;
const PAN_STEP_PX = 80;

const MOVES: Record<string, 'first' | 'last' | 'previous' | 'next'> = {
  Home: 'first',
  End: 'last',
  ArrowLeft: 'previous',
  ArrowUp: 'previous',
  ArrowRight: 'next',
  ArrowDown: 'next',
};

/**
 * The timeline's key map. Zoom keys work anywhere in it; on the svg the arrows pan, on a mark they
 * move the roving focus between marks in time order (Enter or Space selects it, Escape leaves).
 * Keys it does not use give null, so the page keeps them.
 */
export function keyCommand(key: string, onMark: boolean): KeyCommand | null {
  if (key === '+' || key === '=') return { kind: 'zoom', factor: ZOOM_STEP };
  if (key === '-' || key === '_') return { kind: 'zoom', factor: 1 / ZOOM_STEP };
  if (key === '0') return { kind: 'fit' };
  if (onMark) {
    if (key === 'Enter' || key === ' ') return { kind: 'select' };
    if (key === 'Escape') return { kind: 'leave' };
    const to = MOVES[key];
    return to ? { kind: 'move', to } : null;
  }
  if (key === 'ArrowLeft') return { kind: 'pan', dxPx: PAN_STEP_PX };
  if (key === 'ArrowRight') return { kind: 'pan', dxPx: -PAN_STEP_PX };
  return null;
}
