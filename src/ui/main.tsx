import './zodWithoutEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { requestLesson } from './catalog/lessonBodies';
import { useCatalog } from './catalog/catalogStore';
import { requestFirstRuns } from './player/firstRuns';
import { loadLive } from './player/ScenarioPlayer';
import { parseRoute } from './routing/route';
import { spawnSimulator, warmSimulator } from './worker/playerSimulator';
import './styles/base.css';
import './styles/layout.css';
import './styles/blocks.css';

// A lesson or the sandbox shows a player at once, and its first run waits for the simulation
// worker and its Lua VM, the slowest part of opening the page. Start them before React renders
// what needs them: the lesson's body (a chunk of its own) and the worker's thread at once, the
// Lua VM, the simulator and the player's code as soon as that body has arrived. Not all at
// once: on a phone's connection their few hundred kilobytes would slow the body, which is what
// the learner reads first (Lighthouse's simulated phone saw its first paint 0.5 s later).
const route = parseRoute(window.location.hash);
if (route.name === 'lesson' || route.name === 'sandbox') spawnSimulator();
const startPlayer = () => {
  warmSimulator();
  void loadLive().catch(() => undefined);
};
const lesson = route.name === 'lesson' ? useCatalog.getState().lessons.find((l) => l.frontmatter.slug === route.slug || l.frontmatter.formerSlugs.includes(route.slug)) : undefined;
if (lesson) {
  requestLesson(lesson.frontmatter.slug);
  // The same import() as requestLesson's, so this waits for that one download.
  // The lesson's first run, computed at build time (a few kilobytes), comes with the player's code.
  const slug = lesson.frontmatter.slug;
  void useCatalog.getState().loadLesson(slug).then(() => {
    void requestFirstRuns(slug);
    startPlayer();
  }, () => undefined);
} else if (route.name === 'sandbox') startPlayer();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
