import { describe, expect, it } from 'vitest';
import { mergeRects, pixelKey } from './lod';

describe('level of detail', () => {
  it('merges bars on one row that are less than a pixel apart, and keeps rows apart', () => {
    // Row y=5: three bars, the third 3 px after the second: two rects. Row y=20: one bar.
    const merged = mergeRects([0, 5, 10, 4, 10.5, 5, 3, 4, 2, 20, 5, 4, 16.5, 5, 2, 4]);
    expect(merged).toEqual([0, 5, 13.5, 4, 2, 20, 5, 4, 16.5, 5, 2, 4]);
  });

  it('keeps a bar that lies inside the previous one from shrinking it', () => {
    expect(mergeRects([0, 5, 20, 4, 3, 5, 2, 4])).toEqual([0, 5, 20, 4]);
  });

  it('does not merge bars of different heights on the same y (a lease and its projection)', () => {
    expect(mergeRects([0, 5, 10, 4, 5, 5, 10, 8])).toHaveLength(8);
  });

  it('gives arrows that round to the same pixels one key, and different ones different keys', () => {
    expect(pixelKey(10.2, 32, 40.4, 96, 0)).toBe(pixelKey(9.8, 32, 39.6, 96, 0));
    expect(pixelKey(10, 32, 40, 96, 0)).not.toBe(pixelKey(11, 32, 40, 96, 0));
    expect(pixelKey(10, 32, 40, 96, 0)).not.toBe(pixelKey(10, 96, 40, 32, 0));
    expect(pixelKey(10, 32, 40, 96, 0)).not.toBe(pixelKey(10, 32, 40, 96, 1));
  });
});
