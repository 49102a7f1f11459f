import type { MarkKind } from '../../timeline/markKinds';
import { ink, inkMuted, okabeIto, paper } from '../../timeline/palette';

/** One element of a legend swatch (28×16), drawn as the timeline draws the mark; `fill: 'hatch:<name>'` names a hatching. */
export interface SwatchShape {
  tag: 'rect' | 'circle' | 'line' | 'path' | 'text';
  attrs: Record<string, string | number>;
  text?: string;
}

/** One line of the legend: the marks it explains, its words, its swatch. */
export interface LegendEntry {
  kinds: MarkKind[];
  /** `server` is the run's lock server (Redis, or a lock service's name). */
  text: (server: string) => string;
  swatch: SwatchShape[];
}

/** The hatchings the swatches use: [stroke, background, angle], as the timeline's intervals. */
export const HATCHES: Record<string, [string, string, number]> = {
  stale: [okabeIto.vermillion, '#fde9dc', 45],
  pause: [inkMuted, '#eceef1', 45],
  crash: [ink, '#d9d9de', -45],
  partition: ['#f0b48a', '#fff7f1', 90],
};

const rect = (attrs: SwatchShape['attrs']): SwatchShape => ({ tag: 'rect', attrs });
const path = (attrs: SwatchShape['attrs']): SwatchShape => ({ tag: 'path', attrs });
const line = (attrs: SwatchShape['attrs']): SwatchShape => ({ tag: 'line', attrs });
const circle = (attrs: SwatchShape['attrs']): SwatchShape => ({ tag: 'circle', attrs });
const arrowHead = (fill: string) => path({ d: 'M26,2L19,2.5L22,8Z', fill });

/**
 * What each shape, bar and pattern on the timeline means. Every kind of mark the timeline can
 * draw (`markKindsOf`) has an entry, and the small marks' shapes differ without their colours
 * (`legendEntries.test.ts`): a legend whose symbols look alike explains nothing.
 */
export const LEGEND_ENTRIES: readonly LegendEntry[] = [
  {
    kinds: ['lease'],
    text: (server) => `Lease, as ${server} holds it`,
    swatch: [rect({ x: 1, y: 3, width: 26, height: 10, fill: okabeIto.blue, stroke: ink })],
  },
  {
    kinds: ['leaseProjection'],
    text: () => 'The same lease, on the client’s lane',
    swatch: [rect({ x: 1, y: 5, width: 26, height: 6, fill: okabeIto.blue, 'fill-opacity': 0.45 })],
  },
  {
    kinds: ['belief'],
    text: () => 'Client believes it holds the lock',
    swatch: [
      rect({
        x: 2,
        y: 3,
        width: 24,
        height: 10,
        fill: okabeIto.blue,
        'fill-opacity': 0.12,
        stroke: okabeIto.blue,
        'stroke-width': 2.5,
      }),
    ],
  },
  {
    kinds: ['staleBelief'],
    text: (server) => `Believes it holds it, but ${server} has no lease`,
    swatch: [rect({ x: 1, y: 3, width: 26, height: 10, fill: 'hatch:stale', stroke: okabeIto.vermillion })],
  },
  {
    kinds: ['pause'],
    text: () => 'Paused',
    swatch: [rect({ x: 1, y: 1, width: 26, height: 14, fill: 'hatch:pause', stroke: '#8a8d94' })],
  },
  {
    kinds: ['crash'],
    text: () => 'Crashed',
    swatch: [rect({ x: 1, y: 1, width: 26, height: 14, fill: 'hatch:crash', stroke: ink })],
  },
  {
    kinds: ['writeAccepted'],
    text: () => 'Write accepted (circle)',
    swatch: [circle({ cx: 14, cy: 8, r: 6, fill: okabeIto.orange, stroke: ink, 'stroke-width': 1.5 })],
  },
  {
    kinds: ['writeRejected'],
    text: () => 'Write rejected (crossed square)',
    swatch: [
      rect({ x: 8, y: 2, width: 12, height: 12, fill: paper, stroke: okabeIto.vermillion, 'stroke-width': 2 }),
      path({ d: 'M11,5L17,11M11,11L17,5', stroke: okabeIto.vermillion, 'stroke-width': 2 }),
    ],
  },
  {
    kinds: ['message'],
    text: () => 'Message',
    swatch: [line({ x1: 2, y1: 13, x2: 22, y2: 4, stroke: inkMuted, 'stroke-width': 1.2 }), arrowHead(inkMuted)],
  },
  {
    kinds: ['messageDuplicate'],
    text: () => 'Message delivered twice (the copy)',
    swatch: [
      line({
        x1: 2,
        y1: 13,
        x2: 22,
        y2: 4,
        stroke: okabeIto.reddishPurple,
        'stroke-width': 1.5,
        'stroke-dasharray': '6 2 1 2',
      }),
      arrowHead(okabeIto.reddishPurple),
    ],
  },
  {
    kinds: ['messageInFlight'],
    text: () => 'Message still on its way',
    swatch: [line({ x1: 2, y1: 13, x2: 26, y2: 2, stroke: inkMuted, 'stroke-width': 1.5, 'stroke-dasharray': '1 3' })],
  },
  {
    kinds: ['request'],
    text: () => 'Write request (with its token)',
    swatch: [
      line({ x1: 2, y1: 13, x2: 22, y2: 4, stroke: ink, 'stroke-width': 1.5, 'stroke-dasharray': '5 3' }),
      arrowHead(ink),
    ],
  },
  {
    kinds: ['messageLost'],
    text: () => 'Message lost in the network (crossed on the way)',
    swatch: [
      line({
        x1: 2,
        y1: 13,
        x2: 18,
        y2: 6,
        stroke: okabeIto.vermillion,
        'stroke-width': 1.5,
        'stroke-dasharray': '3 2',
      }),
      path({ d: 'M14,2L22,10M14,10L22,2', stroke: okabeIto.vermillion, 'stroke-width': 2 }),
    ],
  },
  {
    kinds: ['messageToCrashed'],
    text: () => 'Message to a crashed process (crossed where it landed)',
    swatch: [
      rect({ x: 17, y: 1, width: 10, height: 14, fill: 'hatch:crash', stroke: ink }),
      line({ x1: 1, y1: 8, x2: 22, y2: 8, stroke: inkMuted, 'stroke-width': 1.2, 'stroke-dasharray': '3 2' }),
      path({ d: 'M18,4L26,12M18,12L26,4', stroke: ink, 'stroke-width': 2 }),
    ],
  },
  {
    kinds: ['state'],
    text: () => 'State change (the lane’s word under its name)',
    swatch: [line({ x1: 14, y1: 9, x2: 14, y2: 15, stroke: inkMuted, 'stroke-width': 1.5 })],
  },
  {
    kinds: ['expiry'],
    text: () => 'Lease expired (TTL)',
    swatch: [
      line({
        x1: 14,
        y1: 1,
        x2: 14,
        y2: 15,
        stroke: okabeIto.vermillion,
        'stroke-width': 2,
        'stroke-dasharray': '4 3',
      }),
    ],
  },
  {
    kinds: ['verdict'],
    text: () => 'Invariant broken (focus it for why)',
    swatch: [
      path({ d: 'M14,1L22,14L6,14Z', fill: okabeIto.vermillion, stroke: ink, 'stroke-width': 1.2 }),
      {
        tag: 'text',
        attrs: { x: 14, y: 13, 'text-anchor': 'middle', fill: paper, 'font-size': 9, 'font-weight': 800 },
        text: '!',
      },
    ],
  },
  {
    kinds: ['partition'],
    text: () => 'Cut off by a network partition',
    swatch: [
      rect({
        x: 1,
        y: 1,
        width: 26,
        height: 14,
        fill: 'hatch:partition',
        stroke: okabeIto.vermillion,
        'stroke-width': 2,
        'stroke-dasharray': '2 4',
      }),
    ],
  },
  {
    kinds: ['timeout'],
    text: () => 'Request timed out (outcome unknown)',
    swatch: [
      path({
        d: 'M8,2H20L8,14H20Z',
        fill: paper,
        stroke: okabeIto.vermillion,
        'stroke-width': 2,
        'stroke-linejoin': 'round',
      }),
    ],
  },
  {
    kinds: ['late'],
    text: () => 'Answer that came after the client stopped waiting',
    swatch: [
      circle({ cx: 14, cy: 8, r: 6, fill: paper, stroke: ink, 'stroke-width': 1.5, 'stroke-dasharray': '2 2' }),
      path({ d: 'M11,8H17M15,5.5L17.5,8L15,10.5', stroke: ink, 'stroke-width': 1.5, fill: 'none' }),
    ],
  },
  {
    kinds: ['clockJump'],
    text: () => 'Clock jumped',
    swatch: [
      circle({ cx: 14, cy: 8, r: 7, fill: paper, stroke: ink, 'stroke-width': 1.5 }),
      path({ d: 'M14,4V8L17,10', stroke: ink, 'stroke-width': 1.5, fill: 'none' }),
    ],
  },
  {
    kinds: ['restart'],
    text: () => 'Restarted',
    swatch: [path({ d: 'M8,1L22,8L8,15Z', fill: okabeIto.bluishGreen, stroke: ink, 'stroke-width': 1.5 })],
  },
  {
    kinds: ['role'],
    text: () => 'Became primary (P) or replica (R)',
    swatch: [
      path({ d: 'M14,0L22,8L14,16L6,8Z', fill: okabeIto.bluishGreen, stroke: ink, 'stroke-width': 1.5 }),
      {
        tag: 'text',
        attrs: { x: 14, y: 11.5, 'text-anchor': 'middle', fill: paper, 'font-size': 9, 'font-weight': 800 },
        text: 'P',
      },
    ],
  },
  {
    kinds: ['sync'],
    text: () => 'Replica’s full sync',
    swatch: [
      rect({ x: 7, y: 2, width: 10, height: 9, fill: paper, stroke: okabeIto.bluishGreen, 'stroke-width': 1.5 }),
      rect({ x: 11, y: 6, width: 10, height: 9, fill: okabeIto.bluishGreen, stroke: ink, 'stroke-width': 1 }),
    ],
  },
  {
    kinds: ['replicate'],
    text: () => 'Replica applied the stream (lag = gap after the write)',
    swatch: [line({ x1: 14, y1: 3, x2: 14, y2: 13, stroke: okabeIto.bluishGreen, 'stroke-width': 2 })],
  },
  {
    kinds: ['sentinel'],
    text: () => 'Sentinel’s stage: SDOWN, ODOWN, election, promotion (its words beside it)',
    swatch: [
      rect({ x: 8, y: 2, width: 12, height: 12, rx: 2, fill: paper, stroke: okabeIto.skyBlue, 'stroke-width': 2 }),
      circle({ cx: 14, cy: 8, r: 2.5, fill: ink }),
    ],
  },
  {
    kinds: ['playhead'],
    text: () => 'Now (the playhead); later is not drawn yet',
    swatch: [line({ x1: 14, y1: 0, x2: 14, y2: 16, stroke: ink, 'stroke-width': 2 })],
  },
];
