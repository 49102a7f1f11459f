import { createElement, memo, useId } from 'react';
import { HATCHES, LEGEND_ENTRIES, type SwatchShape } from './legendEntries';

/** React's names for the SVG attributes the swatches use. */
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** A 28×16 swatch drawing one timeline mark exactly as the timeline draws it. */
function Swatch({ shapes, hatchId }: { shapes: readonly SwatchShape[]; hatchId: (name: string) => string }) {
  return (
    <svg width={28} height={16} viewBox="0 0 28 16" aria-hidden="true" focusable="false">
      {shapes.map((s, i) => {
        const props: Record<string, string | number> = { key: i };
        for (const [k, v] of Object.entries(s.attrs))
          props[camel(k)] =
            typeof v === 'string' && v.startsWith('hatch:') ? `url(#${hatchId(v.slice('hatch:'.length))})` : v;
        return createElement(s.tag, props, s.text);
      })}
    </svg>
  );
}

/**
 * What each shape, bar and pattern the run draws means (`legendEntries.ts`): `drawn` is the
 * run's mark kinds (`markKindsOf`), space-separated, so a simple run's key stays short and a
 * failover's explains every mark. Memoised: it changes with those and the run's lock server,
 * `server` (Redis, or a lock service's name).
 */
export const Legend = memo(function Legend({ server, drawn }: { server: string; drawn: string }) {
  const kinds = new Set(drawn.split(' '));
  const id = useId().replace(/:/g, '');
  const hatchId = (name: string) => `${id}-${name}`;
  return (
    <div>
      <svg width={0} height={0} aria-hidden="true" focusable="false" style={{ position: 'absolute' }}>
        <defs>
          {Object.entries(HATCHES).map(([name, [color, background, angle]]) => (
            <pattern
              key={name}
              id={hatchId(name)}
              patternUnits="userSpaceOnUse"
              width={6}
              height={6}
              patternTransform={`rotate(${angle})`}
            >
              <rect width={6} height={6} fill={background} />
              <line x1={0} y1={0} x2={0} y2={6} stroke={color} strokeWidth={2} />
            </pattern>
          ))}
        </defs>
      </svg>
      <ul className="timeline-legend" aria-label="Timeline legend">
        {LEGEND_ENTRIES.filter((entry) => entry.kinds.some((k) => kinds.has(k))).map((entry) => (
          <li key={entry.kinds.join(' ')} data-marks={entry.kinds.join(' ')}>
            <Swatch shapes={entry.swatch} hatchId={hatchId} />
            {entry.text(server)}
          </li>
        ))}
      </ul>
    </div>
  );
});
