import { describe, expect, it } from 'vitest';
import { placePanel } from './LaneMenu';

/** A lane menu's panel is placed in the viewport: below its button when it fits, else above, never off screen. */
describe('placePanel', () => {
  const view = { width: 390, height: 844 };
  const size = { width: 210, height: 300 };

  it('opens below the button when there is room', () => {
    expect(placePanel({ top: 100, bottom: 124, left: 20 }, size, view)).toEqual({ top: 128, left: 20 });
  });

  it('opens above a button near the bottom of the screen', () => {
    expect(placePanel({ top: 700, bottom: 724, left: 20 }, size, view)).toEqual({ top: 396, left: 20 });
  });

  it('moves left from the right edge, and stays on screen when neither side has room', () => {
    expect(placePanel({ top: 100, bottom: 124, left: 350 }, size, view).left).toBe(390 - 8 - 210);
    expect(placePanel({ top: 200, bottom: 224, left: 20 }, { width: 210, height: 900 }, view).top).toBe(8);
  });
});
