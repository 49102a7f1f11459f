import type { PlayerState } from './playerStore';

/** The player's keyboard shortcuts, as the `?` panel lists them. */
export const SHORTCUTS: [keys: string, what: string][] = [
  ['Space', 'Play or pause'],
  ['→', 'Step to the next event'],
  ['←', 'Step back'],
  ['Home', 'Back to the start'],
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
export function handlePlayerKey(event: { key: string; target: EventTarget | null; defaultPrevented: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }, state: PlayerState, toggleHelp: () => void): boolean {
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
