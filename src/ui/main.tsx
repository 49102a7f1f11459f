import './zodWithoutEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { requestLesson } from './catalog/lessonBodies';
import { useCatalog } from './catalog/catalogStore';
import { loadLive } from './player/ScenarioPlayer';
import { parseRoute } from './routing/route';
import { warmSimulator } from './worker/playerSimulator';
import './styles/base.css';
import './styles/layout.css';
import './styles/blocks.css';

// A lesson or the sandbox shows a player at once, and its first run waits for the simulation
// worker and its Lua VM, the slowest part of opening the page. Start them now, before React
// renders, and the lesson's body and the player's code (chunks of their own) with them, so that
// all of it loads side by side with the page's first render instead of after it.
const route = parseRoute(window.location.hash);
if (route.name === 'lesson' || route.name === 'sandbox') {
  warmSimulator();
  void loadLive().catch(() => undefined);
}
if (route.name === 'lesson') {
  const lesson = useCatalog.getState().lessons.find((l) => l.frontmatter.slug === route.slug || l.frontmatter.formerSlugs.includes(route.slug));
  if (lesson) requestLesson(lesson.frontmatter.slug);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
