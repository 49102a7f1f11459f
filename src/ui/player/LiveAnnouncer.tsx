import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { formatMs } from '../../sim/time';
import { describeEvent } from '../../timeline/describeEvent';
import type { PlayerStore } from './playerStore';

/**
 * A polite live region that says what just happened when the learner steps, and why playback
 * stopped when it stops at a violation. While playing it stays quiet (a sentence per frame
 * would drown a screen reader); the event list holds everything.
 */
export function LiveAnnouncer({ store }: { store: PlayerStore }) {
  const cursor = useStore(store, (s) => s.cursor);
  const playing = useStore(store, (s) => s.playing);
  const stopped = useStore(store, (s) => s.stoppedAtViolation);
  // Written straight into the region: a state update here would render the player a second time per step.
  const regionRef = useRef<HTMLParagraphElement>(null);
  const setMessage = (text: string) => {
    if (regionRef.current && regionRef.current.textContent !== text) regionRef.current.textContent = text;
  };

  useEffect(() => {
    const { events, verdicts, playheadMs } = store.getState();
    if (stopped) {
      const broken = verdicts.filter((v) => !v.holds && v.atMs !== null && v.atMs <= playheadMs);
      setMessage(`Stopped at ${formatMs(playheadMs)}: ${broken.map((v) => v.explanation).join(' ')}`);
      return;
    }
    if (playing) return;
    const e = events[cursor];
    if (!e) return;
    const first = events[0];
    const labels = new Map(first?.kind === 'run.start' ? first.data.actors.map((a) => [a.id, a.label]) : []);
    setMessage(`${formatMs(e.at)}: ${describeEvent(e, (id) => labels.get(id) ?? id)}`);
  }, [store, cursor, playing, stopped]);

  return (
    <p ref={regionRef} className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="live-events" />
  );
}
