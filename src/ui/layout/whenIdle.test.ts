import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from './whenIdle';

describe('whenIdle without idle callbacks (as in Safari)', () => {
  afterEach(() => vi.useRealTimers());

  it('runs after a second, or sooner when the timeout is shorter', () => {
    vi.useFakeTimers();
    const late = vi.fn();
    const soon = vi.fn();
    whenIdle(late, 5000);
    whenIdle(soon, 300);
    vi.advanceTimersByTime(300);
    expect(soon).toHaveBeenCalledOnce();
    expect(late).not.toHaveBeenCalled();
    vi.advanceTimersByTime(700);
    expect(late).toHaveBeenCalledOnce();
  });

  it('does not run once cancelled', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    whenIdle(run, 2000)();
    vi.advanceTimersByTime(5000);
    expect(run).not.toHaveBeenCalled();
  });
});
