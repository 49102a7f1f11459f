import dagre from '@dagrejs/dagre';
import type { OutlineState } from './machineOutline';
import { stateName, transitionName } from './stateNames';

/** A state drawn as a box: a leaf state, or a compound or parallel one framing its children. */
export interface StateBox {
  key: string;
  name: string;
  /** A compound or parallel state: drawn as a frame around its children, its name at the top. */
  frame: boolean;
  final: boolean;
  initial: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A transition drawn as an arrow: the states it joins, its words, its path and where the words sit. */
export interface TransitionArrow {
  from: string;
  to: string;
  label: string;
  /** The label as drawn: one alternative a line (two events to the same state), a guard on a line of its own, so the diagram stays narrow. */
  lines: string[];
  points: { x: number; y: number }[];
  labelX: number;
  labelY: number;
  labelWidth: number;
}

/** A transition several states share (the same words to the same state), said once in words instead of drawn from each. */
export interface SharedTransition {
  from: string[];
  to: string;
  label: string;
}

export interface StatechartLayout {
  states: StateBox[];
  transitions: TransitionArrow[];
  shared: SharedTransition[];
  width: number;
  height: number;
}

/** Text width estimated at the diagram's font (nothing is measured, so Node lays out as a browser does). */
const charPx = (text: string, px: number) => Math.ceil(text.length * px);
const STATE_H = 34;
const LABEL_H = 16;
const FRAME_PAD = 14;
/** A transition's words as drawn: its guard (`[may retry renew]`) on a line of its own, so the diagram stays narrow. */
function lineBreaks(label: string): string[] {
  const guard = label.indexOf(' [');
  return guard < 0 ? [label] : [label.slice(0, guard), label.slice(guard + 1)];
}

/** From this many states, a transition to the same state with the same words is shared. */
const SHARED_FROM = 3;

/**
 * Lays a machine out as a diagram: its states as boxes, top to bottom in the order a run goes
 * through them, its transitions as labelled arrows (dagre's layered layout, which also places
 * the labels clear of the boxes). Transitions without a target (the machine stays where it is)
 * are left out: they change nothing a learner sees. Two transitions between the same states share one arrow,
 * their words joined. A compound state frames its children; an arrow from it leaves from its
 * first child (dagre draws no edge from a frame).
 */
export function layoutStatechart(outline: OutlineState): StatechartLayout {
  const machine = outline.key;
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: false });
  g.setGraph({ rankdir: 'TB', nodesep: 12, ranksep: 36, edgesep: 5, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const all: OutlineState[] = [];
  const visit = (s: OutlineState, parent: string | null, initialKey: string | null) => {
    all.push(s);
    const name = stateName(machine, s.key);
    const frame = s.children.length > 0;
    g.setNode(
      s.key,
      frame
        ? { label: name, frame, initial: initialKey === s.key, final: false, paddingTop: 22 }
        : {
            label: name,
            width: charPx(name, 7.4) + 28,
            height: STATE_H,
            frame,
            initial: initialKey === s.key,
            final: s.type === 'final',
          },
    );
    if (parent) g.setParent(s.key, parent);
    for (const c of s.children) visit(c, s.key, s.type === 'parallel' ? null : s.initial);
  };
  for (const c of outline.children) visit(c, null, outline.initial);

  const leafOf = (key: string): string => {
    const s = all.find((a) => a.key === key);
    if (!s || s.children.length === 0) return key;
    return leafOf(s.initial ?? s.children[0]!.key);
  };
  const edges = new Map<string, { from: string; to: string; labels: string[] }>();
  for (const s of all) {
    for (const t of s.transitions) {
      for (const target of t.to) {
        const from = leafOf(s.key);
        const to = leafOf(target);
        const id = `${from}→${to}`;
        const label = transitionName(machine, t);
        const edge = edges.get(id) ?? { from, to, labels: [] };
        if (!edge.labels.includes(label)) edge.labels.push(label);
        edges.set(id, edge);
      }
    }
  }
  // A way out that three or more states share (Sentinel's "primary answers" back to Monitoring,
  // SENTINEL FAILOVER from anywhere) would cross the whole drawing once from each: it is said
  // once, under the diagram, and the arrows left are the story's.
  const sources = new Map<string, string[]>();
  for (const e of edges.values())
    for (const label of e.labels) sources.set(`${label}→${e.to}`, [...(sources.get(`${label}→${e.to}`) ?? []), e.from]);
  const shared: SharedTransition[] = [];
  for (const [id, from] of sources) {
    if (from.length < SHARED_FROM) continue;
    const [label, to] = id.split('→') as [string, string];
    shared.push({ from, to, label });
    for (const f of from) {
      const e = edges.get(`${f}→${to}`)!;
      e.labels = e.labels.filter((l) => l !== label);
    }
  }
  for (const e of edges.values()) {
    if (e.labels.length === 0) continue;
    const label = e.labels.join(' / ');
    const lines = e.labels.flatMap(lineBreaks);
    const width = Math.max(...lines.map((l) => charPx(l, 6.9))) + 10;
    g.setEdge(e.from, e.to, { label, lines, width, height: LABEL_H * lines.length, labelpos: 'c' });
  }
  dagre.layout(g);

  const states: StateBox[] = all.map((s) => {
    const n = g.node(s.key) as unknown as {
      x: number;
      y: number;
      width: number;
      height: number;
      label: string;
      frame: boolean;
      initial: boolean;
      final: boolean;
    };
    const pad = n.frame ? FRAME_PAD / 2 : 0;
    return {
      key: s.key,
      name: n.label,
      frame: n.frame,
      final: n.final,
      initial: n.initial,
      x: n.x - n.width / 2 - pad,
      y: n.y - n.height / 2 - pad,
      width: n.width + 2 * pad,
      height: n.height + 2 * pad,
    };
  });
  const transitions: TransitionArrow[] = g.edges().map((id) => {
    const e = g.edge(id) as unknown as {
      label: string;
      lines: string[];
      points: { x: number; y: number }[];
      x: number;
      y: number;
      width: number;
    };
    return {
      from: id.v,
      to: id.w,
      label: e.label,
      lines: e.lines,
      points: e.points,
      labelX: e.x,
      labelY: e.y,
      labelWidth: e.width,
    };
  });
  const graph = g.graph() as { width?: number; height?: number };
  return {
    states,
    transitions,
    shared,
    width: Math.ceil(graph.width ?? 0) + FRAME_PAD,
    height: Math.ceil(graph.height ?? 0) + FRAME_PAD,
  };
}
