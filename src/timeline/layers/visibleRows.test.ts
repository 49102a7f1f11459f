import { describe, expect, it } from 'vitest';
import { inRows, rowsToPaint } from './visibleRows';

describe('rowsToPaint', () => {
  it('paints the rows on screen of a tall plot with a margin, not the whole plot', () => {
    // A 3,200 px plot scrolled so that rows 1,000..1,900 are on a 900 px screen.
    const rows = rowsToPaint(-1000, 900, 3200, null);
    expect(rows.topPx).toBeLessThanOrEqual(1000);
    expect(rows.bottomPx).toBeGreaterThanOrEqual(1900);
    expect(rows.bottomPx - rows.topPx).toBeLessThan(1600);
  });

  it('keeps the band through a short scroll and moves it when rows without paint come into view', () => {
    const band = rowsToPaint(-1000, 900, 3200, null);
    expect(rowsToPaint(-1040, 900, 3200, band)).toBe(band);
    const moved = rowsToPaint(-1600, 900, 3200, band);
    expect(moved).not.toBe(band);
    expect(moved.bottomPx).toBeGreaterThanOrEqual(2500);
  });

  it('shrinks back after every row was painted for an export', () => {
    const all = { topPx: 0, bottomPx: 3200 };
    expect(rowsToPaint(0, 900, 3200, all).bottomPx).toBeLessThan(1400);
  });

  it('is never empty, even off screen, and never leaves the plot', () => {
    const below = rowsToPaint(2000, 900, 3200, null);
    expect(below.bottomPx).toBeGreaterThan(below.topPx);
    const above = rowsToPaint(-5000, 900, 3200, null);
    expect(above.bottomPx).toBe(3200);
    expect(above.topPx).toBeGreaterThan(2800);
    expect(rowsToPaint(0, 900, 300, null)).toEqual({ topPx: 0, bottomPx: 300 });
  });
});

describe('inRows', () => {
  it('keeps a mark that crosses the band and skips one wholly outside it', () => {
    const rows = { topPx: 640, bottomPx: 1280 };
    expect(inRows(rows, 100, 700)).toBe(true);
    expect(inRows(rows, 2000, 100)).toBe(true);
    expect(inRows(rows, 100, 600)).toBe(false);
    expect(inRows(rows, 1300, 1400)).toBe(false);
  });
});

describe('rowsToPaint, its documented example', () => {
  it('snaps to lanes a quarter of a viewport beyond what is on screen', () => {
    expect(rowsToPaint(-1000, 900, 3200, null)).toEqual({ topPx: 768, bottomPx: 2176 });
  });
});
