import './zodWithoutEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, loadSandboxPage } from './App';
import { requestLesson } from './catalog/lessonBodies';
import { useCatalog } from './catalog/catalogStore';
import { requestFirstRuns, sandboxFirstRun } from './player/firstRuns';
import { loadLive } from './player/ScenarioPlayer';
import { parseRoute } from './routing/route';
import { spawnSimulator, warmSimulator } from './worker/playerSimulator';
import './styles/base.css';
import './styles/layout.css';
import './styles/blocks.css';

// A lesson or the sandbox shows a player at once. Start what it needs before React renders it:
// the lesson's body (a chunk of its own) at once, the player's code as soon as that body has
// arrived. Not all at once: on a phone's connection their few hundred kilobytes would slow the
// body, which is what the learner reads first (Lighthouse's simulated phone saw its first paint
// 0.5 s later). A lesson's first player usually shows a run computed at build time (packed: a few
// kilobytes, 56 for the herd; see player/firstRuns.ts): the worker, its Lua VM and simulator
// then start once that player asks for them (its inspector, a frame after the run is drawn), so
// as not to compete with it for a CPU (lesson 13: median 455 → 420 ms over 21 interleaved loads
// on a 2-core desktop); a lesson whose first run was not shipped needs them as soon as the body
// has arrived. A share link opens at its player, whose run only the worker can compute:
// everything starts beside the body (median 567 against 600 ms over 20 interleaved loads on the
// desktop bench). The sandbox starts its worker at once.
const route = parseRoute(window.location.hash);
if (route.name === 'sandbox') spawnSimulator();
const loadPlayer = () => void loadLive().catch(() => undefined);
const lesson =
  route.name === 'lesson'
    ? useCatalog
        .getState()
        .lessons.find((l) => l.frontmatter.slug === route.slug || l.frontmatter.formerSlugs.includes(route.slug))
    : undefined;
if (lesson && route.name === 'lesson') {
  const slug = lesson.frontmatter.slug;
  const shared = route.params.get('run') !== null;
  requestLesson(slug);
  if (shared) {
    // A share link opens at its player, with a run only the worker can compute: the player's
    // code, the link's reader and the worker's simulator all start beside the body.
    loadPlayer();
    void import('./player/shareLink').catch(() => undefined);
    warmSimulator();
  } else {
    // The same import() as requestLesson's, so this waits for that one download.
    void useCatalog
      .getState()
      .loadLesson(slug)
      .then(
        () => {
          loadPlayer();
          void requestFirstRuns(slug).then((runs) => Object.keys(runs).length === 0 && warmSimulator());
        },
        () => undefined,
      );
  }
} else if (route.name === 'sandbox') {
  loadSandboxPage().catch(() => undefined);
  loadPlayer();
  // Its opening world's run ships with the site; a sandbox link's run is the worker's to compute.
  if (route.params.get('run') !== null) warmSimulator();
  else void sandboxFirstRun().then((run) => run === null && warmSimulator());
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
