import { useEffect, useRef, useState } from 'react';

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
    // A frame callback runs just before the paint; a message posted from it runs just after.
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        pending.current = false;
        channel.port1.close();
        if (mounted.current) setShown(latest.current);
      };
      channel.port2.postMessage(null);
    });
  }, [value]);

  return shown;
}
