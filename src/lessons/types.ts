import type { RootContent } from 'mdast';
import type { Diagnostic } from '../scenario/diagnostic';
import type { Scenario } from '../scenario/schema/schema';
import type { RunConfig } from '../scenario/running/simulation';
import type { ChecklistSpec } from './blocks/checklist';
import type { ClaimsSpec } from './blocks/claims';
import type { FillInSpec } from './blocks/fillIn';
import type { MatchSpec } from './blocks/match';
import type { QuizSpec } from './blocks/quiz';
import type { ReflectSpec } from './blocks/reflect';
import type { WorkbenchSpec } from './blocks/workbench';
import type { Frontmatter } from './frontmatter';

/**
 * Sanitised Markdown: mdast nodes with raw HTML removed, link references resolved, unsafe
 * URLs dropped and source positions stripped. Plain JSON, safe to render with React.
 */
export type ProseNode = RootContent;

interface Placed {
  /** Stable within the lesson: the author's `id`, else `<kind>-<n>` in order of appearance. */
  id: string;
  /** 1-based line of the opening fence in the lesson file. */
  line: number;
  /** Held back until the learner answers this quiz (an ```after block above it, in the same section). */
  after?: string;
}

/** One side of a compare block, already resolved to a full scenario. */
export interface CompareRun {
  label: string;
  scenario: Scenario;
  /** The run to show instead of the scenario's own (a player comparing a learner's changed run with the lesson's). */
  run?: RunConfig;
}

/** One piece of a lesson, in reading order. */
export type Block =
  /**
   * `after`: shown once the learner has committed an answer to that quiz (an ```after block
   * above it, in the same section); `line` is where that held-back prose starts in the file.
   */
  | { kind: 'prose'; nodes: ProseNode[]; after?: string; line?: number }
  /** `view: 'dashboard'` (a ```dashboard block): the same live scenario with its lock metrics charted. */
  | (Placed & { kind: 'scenario'; scenario: Scenario; ref?: string; view?: 'dashboard' })
  | (Placed & { kind: 'quiz'; spec: QuizSpec })
  | (Placed & { kind: 'reflect'; spec: ReflectSpec })
  | (Placed & { kind: 'match'; spec: MatchSpec })
  | (Placed & { kind: 'checklist'; spec: ChecklistSpec })
  | (Placed & { kind: 'fill-in'; spec: FillInSpec })
  | (Placed & { kind: 'compare'; title?: string; left: CompareRun; right: CompareRun })
  /** An embedded workbench: a recipe to break with the explorer, then fix. */
  | (Placed & { kind: 'workbench'; spec: WorkbenchSpec })
  /** What the prose says a run shows, checked by lessons:check; learners never see it. */
  | (Placed & { kind: 'claims'; spec: ClaimsSpec })
  /** A block that failed validation: shown as an error box (and failing `lessons:check`). */
  | (Placed & { kind: 'invalid'; lang: string; diagnostics: Diagnostic[] });

export type BlockKind = Block['kind'];

/** A parsed lesson: serialisable, so it can be computed at build time and shipped as JSON. */
export interface Lesson {
  /** Path as given to the parser, e.g. `lessons/05-paused-barista.md`. */
  file: string;
  frontmatter: Frontmatter;
  blocks: Block[];
}

/** A course from lessons/courses.yaml. */
export interface Course {
  id: string;
  title: string;
  order: number;
  description: string;
}

/** Every lesson parsed: what the site is built from (the page loads it as an index plus one chunk per body, see lessonIndex.ts). */
export interface Catalog {
  courses: Course[];
  /** Sorted by course order, then lesson order. */
  lessons: Lesson[];
  /** Every problem found while building the catalog (empty in a healthy build). */
  diagnostics: Diagnostic[];
  /**
   * The blocks of lessons left out because their frontmatter is unusable: never shown, but
   * lessons:check still runs their scenarios, so one frontmatter typo reports one problem
   * instead of also hiding every scenario's.
   */
  unlisted?: { file: string; blocks: Block[] }[];
}
