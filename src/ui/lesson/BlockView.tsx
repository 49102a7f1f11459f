import type { Block, Lesson } from '../../lessons/types';
import { ChecklistBlock } from '../blocks/ChecklistBlock';
import { Loaded, loader } from '../layout/loader';
import { CompareBlock } from '../blocks/CompareBlock';
import { FillInBlock } from '../blocks/FillInBlock';
import { InvalidBlock } from '../blocks/InvalidBlock';
import { MatchBlock } from '../blocks/MatchBlock';
import { QuizBlock } from '../blocks/QuizBlock';
import { ReflectBlock } from '../blocks/ReflectBlock';
import { WorkbenchBlockShell } from '../blocks/WorkbenchBlockShell';
import { firstRunOf } from '../player/firstRuns';
import { loadLive, ScenarioPlayer } from '../player/ScenarioPlayer';
import { useVisits } from '../progress/visits';
import { HeldBack } from './HeldBack';
import { Prose } from './Prose';

// The dashboard (its metrics and, later still, Observable Plot) is a chunk of its own: lessons
// without one never download it, and the first page stays the size it was.
const loadDashboardBlock = loader(() => import('../blocks/DashboardBlock').then((m) => m.DashboardBlock));

/** Whether the block is a player (a scenario, a dashboard or a comparison of two runs). */
export function isPlayerBlock(block: Block): boolean {
  return block.kind === 'scenario' || block.kind === 'compare';
}

/** Fetches the code a player block draws with, unless it has arrived; settles either way. */
export function loadPlayerCode(block: Block): Promise<unknown> {
  const dashboard = block.kind === 'scenario' && block.view === 'dashboard';
  return Promise.allSettled(dashboard ? [loadDashboardBlock(), loadLive()] : [loadLive()]);
}

/**
 * Renders one lesson block; interactive blocks save under `<lesson slug>/<block id>`. A block an
 * ```after block holds back waits for its quiz's answer.
 */
export function BlockView({ block, lesson }: { block: Block; lesson: Lesson }) {
  if (!block.after) return <ShownBlock block={block} lesson={lesson} />;
  const first = lesson.blocks.find((b) => b.after === block.after) === block;
  return (
    <HeldBack quizKey={`${lesson.frontmatter.slug}/${block.after}`} first={first}>
      <ShownBlock block={block} lesson={lesson} />
    </HeldBack>
  );
}

function ShownBlock({ block, lesson }: { block: Block; lesson: Lesson }) {
  if (block.kind === 'prose') return <Prose nodes={block.nodes} />;
  const key = `${lesson.frontmatter.slug}/${block.id}`;
  // Seeing a scenario through counts toward the lesson being done (see lessonCompletion.ts).
  const markRun = () => useVisits.getState().markRun(key);
  // The build ships the first player's default run (src/ui/build/firstRuns.ts, same keys).
  const firstRun = (playerKey: string) => firstRunOf(lesson.frontmatter.slug, playerKey);
  switch (block.kind) {
    case 'scenario':
      if (block.view === 'dashboard') {
        return (
          <Loaded
            load={loadDashboardBlock}
            name="the dashboard"
            loading={<p className="block-note">Loading the dashboard…</p>}
            render={(DashboardBlock) => (
              <DashboardBlock scenario={block.scenario} onWatched={markRun} firstRun={firstRun(block.id)} />
            )}
          />
        );
      }
      return (
        <div className="block scenario-block">
          <ScenarioPlayer scenario={block.scenario} onWatched={markRun} firstRun={firstRun(block.id)} />
        </div>
      );
    case 'quiz':
      return <QuizBlock quiz={block.spec} storageKey={key} />;
    case 'reflect':
      return <ReflectBlock spec={block.spec} storageKey={key} />;
    case 'match':
      return <MatchBlock spec={block.spec} storageKey={key} />;
    case 'checklist':
      return <ChecklistBlock spec={block.spec} storageKey={key} />;
    case 'fill-in':
      return <FillInBlock spec={block.spec} storageKey={key} lessonTitle={lesson.frontmatter.title} />;
    case 'compare':
      return (
        <CompareBlock
          {...(block.title ? { title: block.title } : {})}
          left={block.left}
          right={block.right}
          onWatched={markRun}
          firstRuns={[firstRun(`${block.id}/left`), firstRun(`${block.id}/right`)]}
        />
      );
    case 'workbench':
      return (
        <WorkbenchBlockShell
          spec={block.spec}
          storageKey={key}
          lesson={lesson.frontmatter.slug}
          block={block.id}
          onWatched={markRun}
        />
      );
    case 'invalid':
      return <InvalidBlock lang={block.lang} diagnostics={block.diagnostics} />;
    case 'claims':
      return null; // for lessons:check: what the prose says the run shows
  }
}
