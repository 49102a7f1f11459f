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
// the lesson's body (a chunk of its own) and the worker's thread at once, the player's code as
// soon as that body has arrived. Not all at once: on a phone's connection their few hundred
// kilobytes would slow the body, which is what the learner reads first (Lighthouse's simulated
// phone saw its first paint 0.5 s later). A lesson's first player usually shows a run computed
// at build time (a few kilobytes, see player/firstRuns.ts); the worker's Lua VM and simulator
// then load once that player asks for them, so as not to compete with it. A share link (its
// run is the learner's) and a lesson whose first run was not shipped need them as soon as the
// body has arrived, the sandbox at once. (Starting them before the body on a share link saved
// nothing measurable on the desktop bench: 547 vs 549 ms, interleaved.)
const route = parseRoute(window.location.hash);
if (route.name === 'lesson' || route.name === 'sandbox') spawnSimulator();
const loadPlayer = () => void loadLive().catch(() => undefined);
const lesson = route.name === 'lesson' ? useCatalog.getState().lessons.find((l) => l.frontmatter.slug === route.slug || l.frontmatter.formerSlugs.includes(route.slug)) : undefined;
if (lesson && route.name === 'lesson') {
  const slug = lesson.frontmatter.slug;
  const shared = route.params.get('run') !== null;
  requestLesson(slug);
  // The link's reader (and the scenario checks it brings) is needed before the player can ask
  // for the shared run: fetched beside the body rather than once the player has mounted.
  if (shared) void import('./player/shareLink').catch(() => undefined);
  // The same import() as requestLesson's, so this waits for that one download.
  void useCatalog
    .getState()
    .loadLesson(slug)
    .then(() => {
      loadPlayer();
      if (shared) warmSimulator();
      else void requestFirstRuns(slug).then((runs) => Object.keys(runs).length === 0 && warmSimulator());
    }, () => undefined);
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
