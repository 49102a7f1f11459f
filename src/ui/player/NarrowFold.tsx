import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Below this width the secondary panels fold behind disclosure buttons (a phone). */
const NARROW_QUERY = '(max-width: 720px)';

export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => typeof matchMedia === 'function' && matchMedia(NARROW_QUERY).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const query = matchMedia(NARROW_QUERY);
    const update = () => setNarrow(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return narrow;
}

/**
 * On a phone, a secondary panel folds behind a button, so the verdicts follow the timeline
 * instead of thousands of pixels further down. Only the fault buttons fold (one row per actor,
 * about 1,900 px for lesson 9 on a phone, and each lane's ⋯ menu offers the same): the
 * inspector and the console follow the playhead and answer typing, which a learner expects to
 * see without asking. The
 * panel stays mounted while folded (hidden), so it keeps its state; a panel that has nothing to
 * show gets no button. On a wide screen it is shown as it is.
 */
export function NarrowFold({
  label,
  startOpen = false,
  children,
}: {
  label: string;
  startOpen?: boolean;
  children: ReactNode;
}) {
  const narrow = useNarrow();
  const [open, setOpen] = useState(startOpen);
  const [empty, setEmpty] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  const id = useId();
  useLayoutEffect(() => setEmpty(body.current !== null && body.current.childElementCount === 0), [narrow, children]);
  if (!narrow) return <>{children}</>;
  return (
    <div className="player-fold">
      {!empty && (
        <button
          type="button"
          className="player-fold-button"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {label}
        </button>
      )}
      <div id={id} ref={body} hidden={!open}>
        {children}
      </div>
    </div>
  );
}
