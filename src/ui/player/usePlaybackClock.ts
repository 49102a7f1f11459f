import { useEffect } from 'react';
import type { PlayerStore } from './playerStore';

/**
 * Moves the playhead in step with real time while playing. With prefers-reduced-motion the
 * playhead does not sweep: it jumps from step to step twice a second.
 */
export function usePlaybackClock(store: PlayerStore, playing: boolean): void {
  useEffect(() => {
    if (!playing) return;
    if (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches) {
      const timer = setInterval(() => store.getState().tickStep(), 500);
      return () => clearInterval(timer);
    }
    let frame = 0;
    let last = performance.now();
    const loop = (now: number) => {
      store.getState().tick(now - last);
      last = now;
      frame = requestAnimationFrame(loop);
    };
    frame = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(frame);
  }, [store, playing]);
}
