/** Where the learner is. Hash routes keep the static site working from any sub-path. */
export type Route =
  | { name: 'home' }
  | { name: 'lesson'; slug: string; params: URLSearchParams }
  | { name: 'sandbox'; params: URLSearchParams }
  | { name: 'workbench'; params: URLSearchParams }
  | { name: 'glossary'; term: string | undefined }
  /** The instructor's grading page for workbench submissions. */
  | { name: 'grade' }
  /** A run recorded on real processes (`npm run reality -- … --out run.json`), opened from a file. */
  | { name: 'recorded' }
  /** One lesson player alone, for an instructor's page or LMS (`withQuiz`: the question asked before it). */
  | { name: 'embed'; slug: string; scenario: string; withQuiz: boolean }
  | { name: 'not-found'; path: string };

/** Parses `#/`, `#/lesson/<slug>`, `#/embed/<slug>/<scenario id>[?quiz=before]`, `#/lesson/<slug>?run=…`, `#/sandbox?run=…`, `#/workbench?run=…`, `#/grade`, `#/recorded` and `#/glossary/<term>`. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  const [pathname = '/', query = ''] = path.split('?');
  if (pathname === '/' || pathname === '') return { name: 'home' };
  const lesson = /^\/lesson\/([a-z0-9-]+)\/?$/.exec(pathname);
  if (lesson) return { name: 'lesson', slug: lesson[1]!, params: new URLSearchParams(query) };
  if (/^\/sandbox\/?$/.test(pathname)) return { name: 'sandbox', params: new URLSearchParams(query) };
  if (/^\/workbench\/?$/.test(pathname)) return { name: 'workbench', params: new URLSearchParams(query) };
  if (/^\/grade\/?$/.test(pathname)) return { name: 'grade' };
  if (/^\/recorded\/?$/.test(pathname)) return { name: 'recorded' };
  const embed = /^\/embed\/([a-z0-9-]+)\/([A-Za-z0-9_-]+)\/?$/.exec(pathname);
  if (embed)
    return {
      name: 'embed',
      slug: embed[1]!,
      scenario: embed[2]!,
      withQuiz: new URLSearchParams(query).get('quiz') === 'before',
    };
  const glossary = /^\/glossary(?:\/([a-z0-9-]+))?\/?$/.exec(pathname);
  if (glossary) return { name: 'glossary', term: glossary[1] };
  return { name: 'not-found', path: pathname };
}

/** The hash for a lesson, e.g. `#/lesson/paused-barista`. */
export function lessonHref(slug: string): string {
  return `#/lesson/${slug}`;
}

/** The sandbox playground's hash. */
export const SANDBOX_HREF = '#/sandbox';

/** The workbench: write a scenario, check it as you type, run it. */
export const WORKBENCH_HREF = '#/workbench';

/** The instructor's grading page: re-runs learners' workbench submissions. */
export const GRADE_HREF = '#/grade';

/** The page that opens a run recorded on real processes. */
export const RECORDED_HREF = '#/recorded';

/** The glossary of invariants, optionally opened at one term: `#/glossary/single-writer`. */
export function glossaryHref(term?: string): string {
  return term === undefined ? '#/glossary' : `#/glossary/${term}`;
}

/** One lesson player alone, to embed: `#/embed/paused-barista/paused-barista?quiz=before`. */
export function embedHref(slug: string, scenarioId: string, withQuiz = false): string {
  return `#/embed/${slug}/${scenarioId}${withQuiz ? '?quiz=before' : ''}`;
}
