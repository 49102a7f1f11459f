import { describe, expect, it } from 'vitest';
import type { PlayerStore } from '../player/playerStore';
import type { RunConfig } from '../player/runModel';
import { encodeRun } from '../player/shareLink';
import { simTime } from '../../sim/time';
import { checkScenarioText } from './checkScenarioText';
import { scenarioYaml, TEMPLATE } from './workbenchModel';
import { createWorkbenchStore, workbenchView, type WorkbenchDeps } from './workbenchStore';

/** Storage as a browser keeps it; `full` makes every write fail as a full quota does. */
function memoryStorage(initial: Record<string, string> = {}, full = false) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (full) throw new DOMException('quota', 'QuotaExceededError');
      items.set(key, value);
    },
  };
}

function workbench(options: { storage?: WorkbenchDeps['storage']; answers?: boolean[] } = {}) {
  const questions: string[] = [];
  const answers = [...(options.answers ?? [])];
  const store = createWorkbenchStore({
    storage: options.storage === undefined ? memoryStorage() : options.storage,
    check: (text) => checkScenarioText(text),
    checkFully: async (text) => checkScenarioText(text),
    confirm: (question) => {
      questions.push(question);
      return answers.shift() ?? false;
    },
  });
  return { store, questions, s: () => store.getState(), view: () => workbenchView(store.getState()) };
}

const template = checkScenarioText(TEMPLATE);
if (!template.ok) throw new Error('the template does not check');
/** Another valid scenario: the template with its baristas renamed. */
const OTHER = TEMPLATE.replace('Barista', 'Waiter');

/** A share link's `run` parameter carrying `yaml`'s scenario. */
function linkTo(yaml: string, config?: RunConfig): string {
  const checked = checkScenarioText(yaml);
  if (!checked.ok) throw new Error('not a valid scenario');
  const scenario = checked.scenario;
  return encodeRun({
    scenarioId: scenario.id,
    config: config ?? { seed: scenario.seed, fencing: scenario.resource.fencing, actions: [] },
    scenario,
  });
}

describe('the workbench store, driven as a learner would', () => {
  it('opens on the template, checked and running, and keeps typing until a run', async () => {
    const { s, view } = workbench();
    expect(s().text).toBe(TEMPLATE);
    expect(s().running?.text).toBe(TEMPLATE);
    s().edit('clients: [');
    expect(view().current).toBeNull();
    expect(view().stale).toBe(true);
    s().answered('clients: [', checkScenarioText('clients: ['));
    expect(view().problems.length).toBeGreaterThan(0);
    await s().run();
    // A text with problems never replaces the run on show.
    expect(s().running?.text).toBe(TEMPLATE);
    s().edit(OTHER);
    await s().run();
    expect(s().running?.text).toBe(OTHER);
    expect(view().stale).toBe(false);
  });

  it('saves the work, and says when storage is full or off', () => {
    const storage = memoryStorage();
    const { s } = workbench({ storage });
    s().edit(OTHER);
    s().save();
    expect(s().saved).toBe('saved');
    expect(workbench({ storage }).s().text).toBe(OTHER);
    const full = workbench({ storage: memoryStorage({}, true) });
    full.s().save();
    expect(full.s().saved).toBe('full');
    const off = workbench({ storage: null });
    off.s().save();
    expect(off.s().saved).toBe('off');
  });

  it('asks before changed work is replaced, and keeps it when the learner says no', () => {
    const { s, questions } = workbench({ answers: [false, true] });
    s().replaceWork(OTHER, 'Replace?');
    expect(questions).toEqual([]);
    s().edit(OTHER + '\n# mine');
    s().replaceWork(TEMPLATE, 'Reset to the template?');
    expect(s().text).toBe(OTHER + '\n# mine');
    s().replaceWork(TEMPLATE, 'Reset to the template?');
    expect(questions).toEqual(['Reset to the template?', 'Reset to the template?']);
    expect(s().text).toBe(TEMPLATE);
  });

  it('opens a share link at once over unchanged work, and holds it over changed work until the learner chooses', () => {
    const first = workbench();
    first.s().openLink(linkTo(OTHER));
    expect(first.s().text).toContain('Waiter');
    expect(first.s().pendingLink).toBeNull();

    const second = workbench();
    second.s().edit(TEMPLATE + '\n# my notes');
    second.s().openLink(linkTo(OTHER));
    expect(second.s().text).toBe(TEMPLATE + '\n# my notes');
    expect(second.s().pendingLink?.title).toBe(template.scenario.title);
    second.s().keepWork();
    expect(second.s().pendingLink).toBeNull();
    expect(second.s().text).toBe(TEMPLATE + '\n# my notes');
    second.s().openLink(linkTo(OTHER));
    second.s().acceptLink();
    expect(second.s().text).toContain('Waiter');
    expect(second.s().running?.text).toContain('Waiter');
  });

  it('says why a link could not be opened', () => {
    const { s } = workbench();
    s().openLink('not-a-link');
    expect(s().linkProblem).toMatch(/\S/);
    expect(s().text).toBe(TEMPLATE);
  });

  it('reads a chosen file, or says what was wrong with it', () => {
    const { s } = workbench();
    s().fileRead({ ok: false, message: 'a scenario file must be at most 200,000 characters' });
    expect(s().fileProblem).toBe('a scenario file must be at most 200,000 characters');
    s().fileRead({ ok: true, text: OTHER, name: 'mine.yaml' });
    expect(s().fileProblem).toBeNull();
    expect(s().text).toBe(OTHER);
  });

  it('makes a share link only of a valid scenario, and says how many problems stand in the way', () => {
    const { s } = workbench();
    const url = s().makeShareLink('https://example.org/lockstep/#/workbench');
    expect(url).toMatch(/^https:\/\/example\.org\/lockstep\/#\/workbench\?run=/);
    expect(s().share).toEqual({ url });
    s().edit('clients: [');
    s().answered('clients: [', checkScenarioText('clients: ['));
    expect(s().makeShareLink('https://example.org/')).toBeNull();
    expect(s().share).toMatchObject({
      problem: expect.stringMatching(/^Fix the \d+ problems? first: a link carries a valid scenario\.$/),
    });
  });

  it('loads a run Break it found into the player that shows this text, or runs the text with it', () => {
    const { s } = workbench();
    const found = { seed: 9, actions: [{ at: simTime(1000), do: 'pause' as const, target: 'A' }] };
    // No player yet: the run goes with the text to the next player.
    s().loadRun(found);
    expect(s().running?.run).toEqual({ seed: 9, fencing: template.scenario.resource.fencing, actions: found.actions });
    // A player shows this text: the run is loaded into it.
    const loaded: RunConfig[] = [];
    const player = {
      getState: () => ({
        events: [],
        config: { seed: 1, fencing: false, actions: [] },
        load: (c: RunConfig) => loaded.push(c),
      }),
      subscribe: () => () => undefined,
    } as unknown as PlayerStore;
    s().watchPlayer(TEMPLATE, player);
    s().loadRun(found);
    expect(loaded).toEqual([{ seed: 9, fencing: template.scenario.resource.fencing, actions: found.actions }]);
  });

  it('writes the scenario as a lesson file, named for it', () => {
    const file = workbench().s().lessonFile('redis-locks');
    expect(file?.name).toMatch(/\.md$/);
    expect(file?.text).toContain('```scenario');
    expect(file?.text).toContain(
      scenarioYaml(template.scenario, '')
        .split('\n')
        .find((l) => l.startsWith('id:')),
    );
  });
});
