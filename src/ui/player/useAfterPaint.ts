import { useEffect, useRef, useState } from 'react';
import { afterNextPaint } from './afterPaint';

/**
 * Follows `value`, but only after the browser has painted the frame that showed the change.
 * Expensive panels (the inspector replays the simulation) read through it, so a step paints the
 * timeline first and the panel catches up a frame later. While the value changes every frame
 * (playing), the panel still updates once per frame with the latest value: pending updates are
 * coalesced, never cancelled. `initial` is what shows until the first paint (by default, `value`).
 */
export function useAfterPaint<T>(value: T, initial: T = value): T {
  const [shown, setShown] = useState(initial);
  const latest = useRef(value);
  const pending = useRef(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    latest.current = value;
    if (pending.current) return;
    pending.current = true;
    afterNextPaint(() => {
      pending.current = false;
      if (mounted.current) setShown(latest.current);
    });
  }, [value]);

  return shown;
}
