import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ActorCommand } from './actorActions';

export interface LaneMenuProps {
  /** The lane's actor id, on the button, so a panel the menu opened can give focus back to it. */
  laneId: string;
  actorLabel: string;
  commands: ActorCommand[];
  onChoose: (c: ActorCommand) => void;
  /** For an actor driven by a state machine: whether its statechart is shown, and how to toggle it. */
  statechart?: { shown: boolean; toggle: () => void };
  /** For a client: its start time, TTL and work duration, as a form that closes the menu once applied. */
  timing?: (close: () => void) => ReactNode;
}

/**
 * A small button on an actor's lane that opens that actor's fault buttons right there, so a
 * learner can pause a client by pointing at it on the diagram, or ask for the statechart of the
 * machine that drives it. Escape or a click elsewhere closes it and focus returns to the button.
 * The panel is placed in the viewport, not in the timeline's scrolling box: below the button,
 * or above it when the lane is near the bottom, and never past the screen's right edge (it was
 * cut off on the last lanes, and on a phone on the right).
 */
export function LaneMenu({ laneId, actorLabel, commands, onChoose, statechart, timing }: LaneMenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!panelRef.current?.contains(e.target as Node) && e.target !== buttonRef.current) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const [place, setPlace] = useState<{ top: number; left: number } | null>(null);
  useLayoutEffect(() => {
    if (!open) {
      setPlace(null);
      return;
    }
    const position = () => {
      const button = buttonRef.current?.getBoundingClientRect();
      const panel = panelRef.current;
      if (!button || !panel) return;
      setPlace(
        placePanel(
          button,
          { width: panel.offsetWidth, height: panel.offsetHeight },
          { width: window.innerWidth, height: window.innerHeight },
        ),
      );
    };
    position();
    window.addEventListener('resize', position);
    window.addEventListener('scroll', position, true);
    return () => {
      window.removeEventListener('resize', position);
      window.removeEventListener('scroll', position, true);
    };
  }, [open]);

  // Focus the first action once the panel is placed (a hidden element takes no focus).
  const placed = place !== null;
  useEffect(() => {
    if (placed) panelRef.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [placed]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <div className="lane-menu">
      <button
        ref={buttonRef}
        type="button"
        className="lane-menu-button"
        data-lane={laneId}
        aria-expanded={open}
        aria-controls={id}
        aria-label={`Actions for ${actorLabel}`}
        title={`Actions for ${actorLabel}`}
        onClick={() => setOpen(!open)}
      >
        {/* Dots drawn, not typed: a "⋯" character is text that axe cannot match against the button's name. */}
        <svg aria-hidden="true" focusable="false" width="14" height="4" viewBox="0 0 14 4">
          <circle cx="2" cy="2" r="1.6" fill="currentColor" />
          <circle cx="7" cy="2" r="1.6" fill="currentColor" />
          <circle cx="12" cy="2" r="1.6" fill="currentColor" />
        </svg>
      </button>
      {open && (
        <div
          ref={panelRef}
          id={id}
          role="group"
          aria-label={`Actions for ${actorLabel}`}
          className="lane-menu-panel"
          // Measured first (hidden), then placed where it fits.
          style={place ? { top: place.top, left: place.left } : { visibility: 'hidden' }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            }
          }}
        >
          {commands.map((c) => (
            <button
              key={c.id}
              type="button"
              disabled={!c.enabled}
              onClick={() => {
                onChoose(c);
                close();
              }}
            >
              {c.label}
            </button>
          ))}
          {timing?.(close)}
          {statechart && (
            <button
              type="button"
              className="lane-menu-statechart"
              onClick={() => {
                setOpen(false);
                statechart.toggle();
              }}
            >
              {statechart.shown ? 'Hide its statechart' : 'Show its statechart'}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

const MARGIN = 8;

/** Where a panel of `size` goes for a button at `button`, inside a viewport of `view` (CSS pixels, fixed). */
export function placePanel(
  button: { top: number; bottom: number; left: number },
  size: { width: number; height: number },
  view: { width: number; height: number },
): { top: number; left: number } {
  const below = button.bottom + 4;
  const above = button.top - 4 - size.height;
  const top = below + size.height <= view.height - MARGIN || above < MARGIN ? below : above;
  return {
    top: Math.max(MARGIN, Math.min(top, view.height - MARGIN - size.height)),
    left: Math.max(MARGIN, Math.min(button.left, view.width - MARGIN - size.width)),
  };
}
