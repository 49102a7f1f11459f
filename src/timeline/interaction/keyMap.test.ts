import { describe, expect, it } from 'vitest';
import { keyCommand } from './keyMap';

describe('the timeline key map', () => {
  it('zooms and fits from anywhere in the timeline', () => {
    for (const onMark of [false, true]) {
      expect(keyCommand('+', onMark)).toEqual({ kind: 'zoom', factor: 1.5 });
      expect(keyCommand('=', onMark)).toEqual({ kind: 'zoom', factor: 1.5 });
      expect(keyCommand('-', onMark)).toEqual({ kind: 'zoom', factor: 1 / 1.5 });
      expect(keyCommand('0', onMark)).toEqual({ kind: 'fit' });
    }
  });

  it('pans with the side arrows on the svg, content moving the way the arrow points away from', () => {
    expect(keyCommand('ArrowLeft', false)).toEqual({ kind: 'pan', dxPx: 80 });
    expect(keyCommand('ArrowRight', false)).toEqual({ kind: 'pan', dxPx: -80 });
    expect(keyCommand('ArrowUp', false)).toBeNull();
  });

  it('moves between marks in time order on a mark, and selects or leaves it', () => {
    expect(keyCommand('ArrowLeft', true)).toEqual({ kind: 'move', to: 'previous' });
    expect(keyCommand('ArrowUp', true)).toEqual({ kind: 'move', to: 'previous' });
    expect(keyCommand('ArrowRight', true)).toEqual({ kind: 'move', to: 'next' });
    expect(keyCommand('ArrowDown', true)).toEqual({ kind: 'move', to: 'next' });
    expect(keyCommand('Home', true)).toEqual({ kind: 'move', to: 'first' });
    expect(keyCommand('End', true)).toEqual({ kind: 'move', to: 'last' });
    expect(keyCommand('Enter', true)).toEqual({ kind: 'select' });
    expect(keyCommand(' ', true)).toEqual({ kind: 'select' });
    expect(keyCommand('Escape', true)).toEqual({ kind: 'leave' });
  });

  it('leaves keys it does not use to the page (Tab, Escape on the svg, letters)', () => {
    expect(keyCommand('Tab', false)).toBeNull();
    expect(keyCommand('Tab', true)).toBeNull();
    expect(keyCommand('Escape', false)).toBeNull();
    expect(keyCommand('Enter', false)).toBeNull();
    expect(keyCommand('a', true)).toBeNull();
  });
});
