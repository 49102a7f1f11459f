import { useEffect, useId, useRef, useState } from 'react';
import type { ActorCommand } from './actorActions';

/**
 * A small button on an actor's lane that opens that actor's fault buttons right there, so a
 * learner can pause a client by pointing at it on the diagram. Escape or a click elsewhere
 * closes it and focus returns to the button.
 */
export function LaneMenu({ actorLabel, commands, onChoose }: { actorLabel: string; commands: ActorCommand[]; onChoose: (c: ActorCommand) => void }) {
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
        </div>
      )}
    </div>
  );
}
