import { memo, useId, type ReactNode } from 'react';
import { ink, inkMuted, okabeIto, paper } from '../../timeline/palette';

/** A 28×16 swatch drawing one timeline mark exactly as the timeline draws it. */
function Swatch({ children }: { children: ReactNode }) {
  return (
    <svg width={28} height={16} viewBox="0 0 28 16" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

/**
 * What each shape, bar and pattern on the timeline means (memoised: it changes only with the run's
 * lock server, `server`: Redis, or a lock service's name).
 */
export const Legend = memo(function Legend({ server }: { server: string }) {
  const id = useId().replace(/:/g, '');
  const hatch = (name: string, color: string, background: string, angle: number) => (
    <pattern id={`${id}-${name}`} patternUnits="userSpaceOnUse" width={6} height={6} patternTransform={`rotate(${angle})`}>
      <rect width={6} height={6} fill={background} />
      <line x1={0} y1={0} x2={0} y2={6} stroke={color} strokeWidth={2} />
    </pattern>
  );
  return (
    <div>
      <svg width={0} height={0} aria-hidden="true" focusable="false" style={{ position: 'absolute' }}>
        <defs>
          {hatch('stale', okabeIto.vermillion, '#fde9dc', 45)}
          {hatch('pause', inkMuted, '#eceef1', 45)}
          {hatch('crash', ink, '#d9d9de', -45)}
          {hatch('partition', '#f0b48a', '#fff7f1', 90)}
        </defs>
      </svg>
      <ul className="timeline-legend" aria-label="Timeline legend">
        <li>
          <Swatch><rect x={1} y={3} width={26} height={10} fill={okabeIto.blue} stroke={ink} /></Swatch>
          Lease, as {server} holds it
        </li>
        <li>
          <Swatch><rect x={1} y={5} width={26} height={6} fill={okabeIto.blue} fillOpacity={0.45} /></Swatch>
          The same lease, on the client’s lane
        </li>
        <li>
          <Swatch><rect x={2} y={3} width={24} height={10} fill={okabeIto.blue} fillOpacity={0.12} stroke={okabeIto.blue} strokeWidth={2.5} /></Swatch>
          Client believes it holds the lock
        </li>
        <li>
          <Swatch><rect x={1} y={3} width={26} height={10} fill={`url(#${id}-stale)`} stroke={okabeIto.vermillion} /></Swatch>
          Believes it holds it, but {server} has no lease
        </li>
        <li>
          <Swatch><rect x={1} y={1} width={26} height={14} fill={`url(#${id}-pause)`} stroke="#8a8d94" /></Swatch>
          Paused
        </li>
        <li>
          <Swatch><rect x={1} y={1} width={26} height={14} fill={`url(#${id}-crash)`} stroke={ink} /></Swatch>
          Crashed
        </li>
        <li>
          <Swatch><circle cx={14} cy={8} r={6} fill={okabeIto.orange} stroke={ink} strokeWidth={1.5} /></Swatch>
          Write accepted (circle)
        </li>
        <li>
          <Swatch>
            <rect x={8} y={2} width={12} height={12} fill={paper} stroke={okabeIto.vermillion} strokeWidth={2} />
            <path d="M11,5L17,11M11,11L17,5" stroke={okabeIto.vermillion} strokeWidth={2} />
          </Swatch>
          Write rejected (crossed square)
        </li>
        <li>
          <Swatch>
            <line x1={2} y1={13} x2={22} y2={4} stroke={inkMuted} strokeWidth={1.2} />
            <path d="M26,2L19,2.5L22,8Z" fill={inkMuted} />
          </Swatch>
          Message
        </li>
        <li>
          <Swatch>
            <line x1={2} y1={13} x2={22} y2={4} stroke={ink} strokeWidth={1.5} strokeDasharray="5 3" />
            <path d="M26,2L19,2.5L22,8Z" fill={ink} />
          </Swatch>
          Write request (with its token)
        </li>
        <li>
          <Swatch>
            <line x1={2} y1={13} x2={18} y2={6} stroke={okabeIto.vermillion} strokeWidth={1.5} strokeDasharray="3 2" />
            <path d="M14,2L22,10M14,10L22,2" stroke={okabeIto.vermillion} strokeWidth={2} />
          </Swatch>
          Message dropped
        </li>
        <li>
          <Swatch><line x1={14} y1={1} x2={14} y2={15} stroke={okabeIto.vermillion} strokeWidth={2} strokeDasharray="4 3" /></Swatch>
          Lease expired (TTL)
        </li>
        <li>
          <Swatch>
            <path d="M14,1L22,14L6,14Z" fill={okabeIto.vermillion} stroke={ink} strokeWidth={1.2} />
          </Swatch>
          Invariant broken (focus it for why)
        </li>
        <li>
          <Swatch><rect x={1} y={1} width={26} height={14} fill={`url(#${id}-partition)`} stroke={okabeIto.vermillion} strokeWidth={2} strokeDasharray="2 4" /></Swatch>
          Cut off by a network partition
        </li>
        <li>
          <Swatch><path d="M8,2H20L8,14H20Z" fill={paper} stroke={okabeIto.vermillion} strokeWidth={2} strokeLinejoin="round" /></Swatch>
          Request timed out (outcome unknown)
        </li>
        <li>
          <Swatch>
            <path d="M14,0L22,8L14,16L6,8Z" fill={okabeIto.bluishGreen} stroke={ink} strokeWidth={1.5} />
          </Swatch>
          Became primary (P) or replica (R)
        </li>
        <li>
          <Swatch><line x1={14} y1={3} x2={14} y2={13} stroke={okabeIto.bluishGreen} strokeWidth={2} /></Swatch>
          Replica applied the stream (lag = gap after the write)
        </li>
        <li>
          <Swatch>
            <circle cx={14} cy={8} r={7} fill={okabeIto.yellow} stroke={ink} strokeWidth={1.5} />
          </Swatch>
          Failover
        </li>
        <li>
          <Swatch><rect x={8} y={2} width={12} height={12} rx={2} fill={paper} stroke={okabeIto.skyBlue} strokeWidth={2} /></Swatch>
          Sentinel’s opinion or vote
        </li>
        <li>
          <Swatch><line x1={14} y1={0} x2={14} y2={16} stroke={ink} strokeWidth={2} /></Swatch>
          Now (the playhead); later is not drawn yet
        </li>
      </ul>
    </div>
  );
});
