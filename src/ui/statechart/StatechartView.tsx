import { useEffect, useId, useMemo, useRef } from 'react';
import type { OutlineState, OutlineTransition } from './machineOutline';
import { layoutStatechart, type StateBox } from './statechartLayout';
import { stateName, transitionName } from './stateNames';
import './statechart.css';

/**
 * A machine drawn from its own definition as a diagram: states as boxes (a compound state
 * framing its children), transitions as labelled arrows, named as the lessons name them
 * (`stateNames.ts`). States named in `active` are lit, so a lane's statechart follows the
 * playhead. The drawing is one image to a screen reader; the same transitions follow as a list.
 */
export function StatechartView({
  outline,
  active,
  label,
}: {
  outline: OutlineState;
  active: ReadonlySet<string>;
  label: string;
}) {
  const layout = useMemo(() => layoutStatechart(outline), [outline]);
  const arrow = `${useId().replace(/:/g, '')}-arrow`;
  const machine = outline.key;
  const lit = (s: StateBox) => active.has(s.key);
  const now = layout.states.filter(lit).map((s) => s.name);
  // A diagram wider than its box (a phone) keeps the state at the playhead, or the first one,
  // in view as it moves: the box scrolls sideways to centre it.
  const scroller = useRef<HTMLDivElement>(null);
  const focusKey =
    layout.states.find((s) => !s.frame && lit(s))?.key ?? layout.states.find((s) => s.initial && !s.frame)?.key;
  useEffect(() => {
    const box = scroller.current;
    const state =
      focusKey === undefined ? null : box?.querySelector<SVGGElement>(`[data-state="${CSS.escape(focusKey)}"]`);
    if (!box || !state || box.scrollWidth <= box.clientWidth) return;
    const at = state.getBoundingClientRect();
    const frame = box.getBoundingClientRect();
    box.scrollLeft += at.left + at.width / 2 - (frame.left + frame.width / 2);
  }, [focusKey]);
  return (
    <figure className="statechart" aria-label={label}>
      {/* Focusable, so a keyboard can scroll a diagram wider than a phone (axe: scrollable-region-focusable). */}
      <div className="statechart-scroll" role="group" aria-label="The diagram" tabIndex={0} ref={scroller}>
        <svg
          className="statechart-diagram"
          role="img"
          aria-label={`${layout.states.filter((s) => !s.frame).length} states and ${layout.transitions.length} arrows${now.length ? `; now in ${now.join(', ')}` : ''}. The transitions follow as a list.`}
          width={layout.width}
          height={layout.height}
          style={{
            width: '100%',
            maxWidth: layout.width,
            minWidth: Math.ceil(layout.width * MIN_SCALE),
            height: 'auto',
          }}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
        >
          <defs>
            <marker
              id={arrow}
              viewBox="0 0 10 10"
              refX={9}
              refY={5}
              markerWidth={7}
              markerHeight={7}
              orient="auto-start-reverse"
            >
              <path d="M0,0L10,5L0,10Z" className="statechart-arrowhead" />
            </marker>
          </defs>
          {layout.states
            .filter((s) => s.frame)
            .map((s) => (
              <g
                key={s.key}
                className={`statechart-frame${active.size && containsLit(outline, s.key, active) ? ' is-active' : ''}`}
              >
                <rect x={s.x} y={s.y} width={s.width} height={s.height} rx={10} />
                <text x={s.x + 10} y={s.y + 16}>
                  {s.name}
                </text>
              </g>
            ))}
          {layout.transitions.map((t) => (
            <g key={`${t.from}→${t.to}`} className="statechart-arrow">
              <path d={pathOf(t.points)} markerEnd={`url(#${arrow})`} />
              <rect
                x={t.labelX - t.labelWidth / 2}
                y={t.labelY - 8 * t.lines.length}
                width={t.labelWidth}
                height={16 * t.lines.length}
                rx={3}
              />
              {t.lines.map((line, i) => (
                <text key={i} x={t.labelX} y={t.labelY + 4 + 16 * (i - (t.lines.length - 1) / 2)} textAnchor="middle">
                  {line}
                </text>
              ))}
            </g>
          ))}
          {layout.states
            .filter((s) => !s.frame)
            .map((s) => (
              <g
                key={s.key}
                className={`statechart-box${lit(s) ? ' is-active' : ''}${s.final ? ' is-final' : ''}`}
                data-state={s.key}
                aria-current={lit(s) ? 'step' : undefined}
              >
                <rect x={s.x} y={s.y} width={s.width} height={s.height} rx={8} />
                {s.final && (
                  <rect
                    className="statechart-final-ring"
                    x={s.x + 3}
                    y={s.y + 3}
                    width={s.width - 6}
                    height={s.height - 6}
                    rx={6}
                  />
                )}
                {s.initial && <circle className="statechart-initial" cx={s.x - 6} cy={s.y + s.height / 2} r={4} />}
                <text x={s.x + s.width / 2} y={s.y + s.height / 2 + 5} textAnchor="middle">
                  {s.name}
                </text>
              </g>
            ))}
        </svg>
      </div>
      {layout.shared.length > 0 && (
        <ul className="statechart-shared" aria-label="Arrows several states share">
          {layout.shared.map((t) => (
            <li key={`${t.label}→${t.to}`}>
              From {listOf(t.from.map((k) => stateName(machine, k)))}: <em>{t.label}</em> → {stateName(machine, t.to)}
            </li>
          ))}
        </ul>
      )}
      <details className="statechart-list">
        <summary>The transitions as a list</summary>
        <ul>
          {flatten(outline).flatMap((s) =>
            s.transitions
              .filter((t) => t.to.length > 0)
              .map((t, i) => (
                <li key={`${s.id}-${i}`} aria-current={active.has(s.key) ? 'step' : undefined}>
                  {stateName(machine, s.key)} → {t.to.map((k) => stateName(machine, k)).join(', ')}:{' '}
                  {transitionName(machine, t)}
                </li>
              )),
          )}
        </ul>
      </details>
      <figcaption className="statechart-caption">
        Drawn from the machine’s own definition. The lit state is where the actor is at the playhead; a dot marks where
        the machine starts.
      </figcaption>
    </figure>
  );
}

/**
 * The most the diagram is scaled down before it scrolls sideways instead: its words (11.5 and
 * 12 px) stay above 9 px. A laptop fits the lock client's whole diagram; a phone scrolls it.
 */
const MIN_SCALE = 0.8;

/** An SVG path through dagre's points: straight from the first, smooth through the rest. */
function pathOf(points: readonly { x: number; y: number }[]): string {
  const [first, ...rest] = points;
  if (!first) return '';
  if (rest.length === 1) return `M${first.x},${first.y}L${rest[0]!.x},${rest[0]!.y}`;
  let d = `M${first.x},${first.y}`;
  for (let i = 0; i < rest.length - 1; i++) {
    const c = rest[i]!;
    const n = rest[i + 1]!;
    const end = i === rest.length - 2 ? n : { x: (c.x + n.x) / 2, y: (c.y + n.y) / 2 };
    d += `Q${c.x},${c.y} ${end.x},${end.y}`;
  }
  return d;
}

/** `a, b or c`. */
function listOf(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

function flatten(s: OutlineState): OutlineState[] {
  return [s, ...s.children.flatMap(flatten)];
}

/** Whether the state `key` is lit or holds a lit state. */
function containsLit(outline: OutlineState, key: string, active: ReadonlySet<string>): boolean {
  const node = flatten(outline).find((s) => s.key === key);
  return !!node && flatten(node).some((s) => active.has(s.key));
}

/** `RENEW_FAILED [mayRetryRenew] → renewWaiting`: a transition as the machine's code names it. */
export function transitionText(t: OutlineTransition): string {
  const guard = t.guard ? ` [${t.guard}]` : '';
  const to = t.to.length > 0 ? ` → ${t.to.join(', ')}` : ' (stays)';
  return `${t.on}${guard}${to}`;
}
