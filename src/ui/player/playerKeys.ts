import type { PlayerState } from './playerStore';

/** The player's keyboard shortcuts, as the `?` panel lists them. */
export const SHORTCUTS: [keys: string, what: string][] = [
  ['Space', 'Play or pause'],
  ['→', 'Step to the next event'],
  ['←', 'Step back'],
  ['Home', 'Back to the start'],
  ['Tab, ↑/↓', 'Select a fault on the timeline'],
  ['←/→ on a fault', 'Move it by 0.1 s (Shift: 1 s)'],
  ['[ / ]', 'Shorten or lengthen the selected fault'],
  ['Delete', 'Remove the selected fault'],
  ['Ctrl+Z, Ctrl+Shift+Z', 'Undo, redo a change'],
  ['?', 'Show or hide this list'],
];

/** Where a key means something else already: typing, choosing, or pressing a control. */
function keepsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, select, textarea, [contenteditable="true"]')) return true;
  // Space presses a focused button; arrows move within the timeline when it has focus.
  if (key === ' ' && target.closest('button, summary, a, [role="button"]')) return true;
  return false;
}

/**
 * Handles one key pressed anywhere in a player. Returns true when it was a player shortcut
 * (the caller then prevents the browser's default, e.g. Space scrolling the page). Keys the
 * focused element already handled (the timeline pans with the arrows) are left alone.
 */
export function handlePlayerKey(
  event: {
    key: string;
    target: EventTarget | null;
    defaultPrevented: boolean;
    altKey: boolean;
    ctrlKey: boolean;
    metaKey: boolean;
  },
  state: PlayerState,
  toggleHelp: () => void,
): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false;
  if (keepsKey(event.target, event.key)) return false;
  switch (event.key) {
    case ' ':
      if (state.playing) state.pause();
      else state.play();
      return true;
    case 'ArrowRight':
      state.stepForward();
      return true;
    case 'ArrowLeft':
      state.stepBack();
      return true;
    case 'Home':
      state.reset();
      return true;
    case '?':
      toggleHelp();
      return true;
    default:
      return false;
  }
}

/** Ctrl+Z (⌘Z) undoes the last change of the story, with Shift (or Ctrl+Y) redoes it; typing keeps its own undo. */
export function handleUndoKey(
  event: {
    key: string;
    target: EventTarget | null;
    shiftKey: boolean;
    ctrlKey: boolean;
    metaKey: boolean;
    altKey: boolean;
  },
  state: Pick<PlayerState, 'undo' | 'redo'>,
): boolean {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || keepsKey(event.target, event.key)) return false;
  const key = event.key.toLowerCase();
  if (key === 'z' && !event.shiftKey) state.undo();
  else if ((key === 'z' && event.shiftKey) || key === 'y') state.redo();
  else return false;
  return true;
}
