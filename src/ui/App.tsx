import { useEffect, useState } from 'react';
import type { LessonEntry } from '../lessons/lessonIndex';
import type { Course, Lesson } from '../lessons/types';
import { useCatalog } from './catalog/catalogStore';
import { loadAllLessons } from './catalog/lessonBodies';
import { CourseMap } from './course/CourseMap';
import { GlossaryPage } from './glossary/GlossaryPage';
import { EmbedPage } from './embed/EmbedPage';
import { DiagnosticsPanel } from './layout/DiagnosticsPanel';
import { Loaded, loader } from './layout/loader';
import { Notices } from './layout/Notices';
import { PartBoundary } from './layout/PartBoundary';
import { BlockView } from './lesson/BlockView';
import { CompareBlock } from './blocks/CompareBlock';
import { CompareSlot } from './player/compareSlot';
import { LessonPage } from './lesson/LessonPage';
import { ProgressTools } from './progress/ProgressTools';
import { syncAcrossTabs, useProgress } from './progress/progressStore';
import { UpdatePrompt } from './pwa/UpdatePrompt';
import { useRoute } from './routing/useRoute';
import { glossaryHref, SANDBOX_HREF, WORKBENCH_HREF, type Route } from './routing/route';

// The sandbox brings the simulator and the YAML parser: a lazy chunk, fetched on first visit
// (main.tsx starts it before the first render when the page opens on the sandbox).
export const loadSandboxPage = loader(() => import('./playground/SandboxPage').then((m) => m.SandboxPage));
// The workbench brings CodeMirror besides: a chunk of its own, fetched on first visit.
const loadGradePage = loader(() => import('./grade/GradePage').then((m) => m.GradePage));
const loadRecordedRunPage = loader(() => import('./recorded/RecordedRunPage').then((m) => m.RecordedRunPage));
const loadWorkbenchPage = loader(() => import('./workbench/WorkbenchPage').then((m) => m.WorkbenchPage));

/** The app shell: header, notices, and the page the hash route names. */
export function App() {
  const catalog = useCatalog();
  const route = useRoute();

  useEffect(() => syncAcrossTabs(), []);
  useEffect(() => {
    useProgress
      .getState()
      .adoptRenames(catalog.lessons.map((l) => ({ slug: l.frontmatter.slug, formerSlugs: l.frontmatter.formerSlugs })));
  }, [catalog.lessons]);

  const slug = route.name === 'lesson' || route.name === 'embed' ? route.slug : undefined;
  const lesson =
    slug === undefined
      ? undefined
      : catalog.lessons.find((l) => l.frontmatter.slug === slug || l.frontmatter.formerSlugs.includes(slug));
  const routeKey =
    route.name === 'lesson'
      ? `lesson/${route.slug}`
      : route.name === 'embed'
        ? `embed/${route.slug}/${route.scenario}`
        : route.name;
  // A page opened at one of its parts (a glossary term) brings that part into view itself.
  const openedAtPart = route.name === 'glossary' && route.term !== undefined;

  const title = lesson
    ? `${lesson.frontmatter.title} · Lockstep`
    : routeKey === 'sandbox'
      ? 'Sandbox · Lockstep'
      : routeKey === 'workbench'
        ? 'Workbench · Lockstep'
        : routeKey === 'glossary'
          ? 'Glossary · Lockstep'
          : routeKey === 'grade'
            ? 'Grade submissions · Lockstep'
            : routeKey === 'recorded'
              ? 'A run recorded on real processes · Lockstep'
              : 'Lockstep: distributed locks you can break';
  useEffect(() => {
    document.title = title;
  }, [title]);
  // A new page: start at the top and move focus to its heading so screen readers announce it.
  // Only a new page: a lesson hot-reloaded by `npm run dev` keeps the place its author was at.
  useEffect(() => {
    if (openedAtPart) return;
    window.scrollTo(0, 0);
    document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
  }, [routeKey, openedAtPart]);

  // Embedded in an instructor's page: the player alone, with no site header or footer.
  if (route.name === 'embed') {
    return (
      <>
        <Notices />
        <PartBoundary key={routeKey} what="This simulation">
          <CompareSlot.Provider value={CompareBlock}>
            <EmbedPage entry={lesson} scenarioId={route.scenario} withQuiz={route.withQuiz} />
          </CompareSlot.Provider>
        </PartBoundary>
      </>
    );
  }

  return (
    <>
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="site-header">
        <div className="site-header-inner">
          <a className="brand" href="#/">
            <img src="icon.svg" alt="" width="28" height="28" />
            <span>Lockstep</span>
          </a>
          <nav aria-label="Site" className="site-nav">
            <a href="#/" aria-current={route.name === 'home' ? 'page' : undefined}>
              Courses
            </a>
            <a href={SANDBOX_HREF} aria-current={route.name === 'sandbox' ? 'page' : undefined}>
              Sandbox
            </a>
            <a href={WORKBENCH_HREF} aria-current={route.name === 'workbench' ? 'page' : undefined}>
              Workbench
            </a>
            <a href={glossaryHref()} aria-current={route.name === 'glossary' ? 'page' : undefined}>
              Glossary
            </a>
          </nav>
        </div>
      </header>
      <UpdatePrompt />
      <Notices />
      <DiagnosticsPanel />
      <main id="main" tabIndex={-1}>
        <PartBoundary key={routeKey} what="This page">
          {/* Every player may set the learner's changed run beside the lesson's (LessonRunCompare). */}
          <CompareSlot.Provider value={CompareBlock}>
            <Page route={route} lesson={lesson} />
          </CompareSlot.Provider>
        </PartBoundary>
      </main>
      <footer className="site-footer">
        <p>
          Lockstep runs entirely in your browser and keeps working offline after your first visit. Your progress is
          stored on this device only.
        </p>
        <ProgressTools />
      </footer>
    </>
  );
}

function Page({ route, lesson }: { route: Route; lesson: LessonEntry | undefined }) {
  const catalog = useCatalog();
  if (route.name === 'home') return <CourseMap catalog={catalog} />;
  if (route.name === 'glossary') return <GlossaryPage term={route.term} />;
  if (route.name === 'sandbox')
    return (
      <Loaded
        load={loadSandboxPage}
        name="the sandbox"
        loading={<p aria-busy="true">Loading the sandbox…</p>}
        render={(SandboxPage) => <SandboxPage />}
      />
    );
  if (route.name === 'workbench') return <WorkbenchRoute courses={catalog.courses} />;
  if (route.name === 'grade')
    return (
      <Loaded
        load={loadGradePage}
        name="the grading page"
        loading={<p aria-busy="true">Loading the grading page…</p>}
        render={(GradePage) => <GradePage />}
      />
    );
  if (route.name === 'recorded')
    return (
      <Loaded
        load={loadRecordedRunPage}
        name="the recorded-run page"
        loading={<p aria-busy="true">Loading the recorded-run page…</p>}
        render={(RecordedRunPage) => <RecordedRunPage />}
      />
    );
  if (lesson) {
    return (
      <LessonPage
        key={lesson.frontmatter.slug}
        entry={lesson}
        course={catalog.courses.find((c) => c.id === lesson.frontmatter.course)}
        lessons={catalog.lessons}
      />
    );
  }
  return (
    <div className="not-found">
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        {route.name === 'lesson'
          ? `There is no lesson called "${shortened(route.slug)}".`
          : 'That address does not lead anywhere.'}{' '}
        <a href="#/">See all courses</a>.
      </p>
    </div>
  );
}

/** A name from the address, cut to what a sentence can hold (an address can be any length). */
function shortened(name: string, max = 60): string {
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}

/**
 * The workbench opens lesson scenarios and previews lessons, so it needs every lesson's body:
 * they load (from the cache after the first visit) when the workbench opens, never on the
 * first page.
 */
function WorkbenchRoute({ courses }: { courses: Course[] }) {
  const [lessons, setLessons] = useState<Lesson[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    // The page's own code downloads meanwhile.
    loadWorkbenchPage().catch(() => undefined);
    loadAllLessons().then(
      (all) => live && setLessons(all),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  if (failed)
    return (
      <p role="alert">
        The lessons could not be loaded, so the workbench cannot offer their scenarios. Check the connection and reload
        the page.
      </p>
    );
  if (lessons === null) return <p aria-busy="true">Loading the workbench…</p>;
  return (
    <Loaded
      load={loadWorkbenchPage}
      name="the workbench"
      loading={<p aria-busy="true">Loading the workbench…</p>}
      render={(WorkbenchPage) => (
        <WorkbenchPage
          catalog={{ courses, lessons, diagnostics: [] }}
          renderBlock={(block, lesson) => <BlockView block={block} lesson={lesson} />}
        />
      )}
    />
  );
}
