import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
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
 */
export function LaneMenu({ laneId, actorLabel, commands, onChoose, statechart, timing }: LaneMenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    const onPointer = (e: PointerEvent) => {
      if (!panelRef.current?.contains(e.target as Node) && e.target !== buttonRef.current) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

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
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <div
          ref={panelRef}
          id={id}
          role="group"
          aria-label={`Actions for ${actorLabel}`}
          className="lane-menu-panel"
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
