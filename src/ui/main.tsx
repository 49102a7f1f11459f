import './zodWithoutEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { parseRoute } from './routing/route';
import { warmSimulator } from './worker/playerSimulator';
import './styles/base.css';
import './styles/layout.css';
import './styles/blocks.css';

// A lesson or the sandbox shows a player at once, and its first run waits for the simulation
// worker and its Lua VM, the slowest part of opening the page. Start them now, before React
// renders and the lesson's chunk arrives, so they load side by side with the page.
const route = parseRoute(window.location.hash);
if (route.name === 'lesson' || route.name === 'sandbox') warmSimulator();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
