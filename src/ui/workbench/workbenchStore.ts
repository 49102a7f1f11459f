import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Diagnostic } from '../../scenario/diagnostic';
import { scriptFailures, type ScriptFailure } from '../../scenario/running/scriptFailures';
import type { Scenario } from '../../scenario/schema/schema';
import type { ScenarioResult } from '../../scenario/text/parse';
import type { PlayerStore } from '../player/playerStore';
import type { RunConfig } from '../player/runModel';
import { decodeRun, encodeRun, shareUrl } from '../player/shareLink';
import {
  fileNameFor,
  lessonSkeleton,
  loadWork,
  runAsScenarioYaml,
  saveWork,
  scenarioYaml,
  TEMPLATE,
  type LoadedWork,
} from './workbenchModel';

/** What the workbench needs from its page: where work is kept, the two checks, and the learner's yes or no. */
export interface WorkbenchDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** The quick check, on this thread (scripts not compiled). */
  check(text: string): ScenarioResult;
  /** The full check before a run: off the page's thread, with the scripts compiled. */
  checkFully(text: string): Promise<ScenarioResult>;
  /** Asks before work the learner changed is replaced (window.confirm on the page). */
  confirm(question: string): boolean;
}

/** The run the player shows: the text it was made from, and a run to open (a counterexample) if any. */
export interface Running {
  text: string;
  scenario: Scenario;
  run?: RunConfig;
}

export interface WorkbenchState {
  /** What was read from storage when the page opened (a notice when it could not be used). */
  loaded: LoadedWork;
  text: string;
  /** The newest check that answered, and the text it was for. */
  checked: { text: string; result: ScenarioResult };
  running: Running | null;
  /** The text last loaded whole (template, lesson scenario, file, link): replacing it asks nothing. */
  lastLoaded: string;
  pendingLink: { text: string; title: string } | null;
  linkProblem: string | null;
  fileProblem: string | null;
  share: { url: string } | { problem: string } | null;
  saved: 'saved' | 'full' | 'off';
  /** Scripts that failed in the run on show, and problems its player found in the text. */
  failures: ScriptFailure[];
  runProblems: Diagnostic[];
  /** The player's store, for the run it shows (a share link and a lesson download carry it). */
  player: { text: string; store: PlayerStore } | null;

  edit(text: string): void;
  answered(text: string, result: ScenarioResult): void;
  save(): void;
  /** Replaces the editor's text, asking first when the learner's changes would be lost. */
  replaceWork(next: string, question: string): void;
  /** A share link's `run` parameter: loaded, or held until the learner says whether to replace their work. */
  openLink(param: string): void;
  acceptLink(): void;
  keepWork(): void;
  fileRead(read: { ok: true; text: string; name: string } | { ok: false; message: string }): void;
  run(): Promise<void>;
  /** A run Break it found, into the player: at once when it shows this text, else with the text run first. */
  loadRun(run: { seed: number; actions: RunConfig['actions'] }): void;
  /** Follows a new player's store for its failed scripts; returns how to stop. */
  watchPlayer(text: string, store: PlayerStore): () => void;
  setRunProblems(problems: Diagnostic[]): void;
  /** A link to the editor's scenario (and the player's run of it) under `pageUrl`; null when the text has problems. */
  makeShareLink(pageUrl: string): string | null;
  /** The editor's scenario as a lesson file (a run loaded in the player becomes its scenario), or null when it has problems. */
  lessonFile(course: string): { name: string; text: string } | null;
}

/** What the page shows, read from the state: never a parse on a keystroke. */
export function workbenchView(s: WorkbenchState) {
  const current = s.checked.text === s.text ? s.checked.result : null;
  return {
    /** This text's check, null until it answers. */
    current,
    problems: current && !current.ok ? current.diagnostics : [],
    /** The last check's problems, shown until this text's check answers. */
    lastProblems: s.checked.result.ok ? [] : s.checked.result.diagnostics,
    scenarioOk: current?.ok ?? false,
    stale: s.running !== null && s.running.text !== s.text,
    lastChecked: s.checked.result.ok ? s.checked.result.scenario : null,
  };
}

/**
 * The workbench's state and what its buttons do, apart from React, so that Node tests drive it
 * as a learner would (type, run, open a link, keep or replace their work) as the player's store is.
 */
export function createWorkbenchStore(deps: WorkbenchDeps): StoreApi<WorkbenchState> {
  const loaded = loadWork(deps.storage);
  const text = loaded.text ?? TEMPLATE;
  const result = deps.check(text);
  return createStore<WorkbenchState>()((set, get) => {
    const load = (next: string) => {
      const checked = deps.check(next);
      set({
        text: next,
        lastLoaded: next,
        checked: { text: next, result: checked },
        ...(checked.ok ? { running: { text: next, scenario: checked.scenario } } : {}),
      });
    };
    const valid = (): Scenario | null => {
      const result = workbenchView(get()).current ?? deps.check(get().text);
      return result.ok ? result.scenario : null;
    };
    /** The player's store if it shows the editor's text. */
    const playerHere = () => {
      const { player, text } = get();
      return player && player.text === text ? player.store : null;
    };
    return {
      loaded,
      text,
      checked: { text, result },
      running: result.ok ? { text, scenario: result.scenario } : null,
      lastLoaded: text,
      pendingLink: null,
      linkProblem: null,
      fileProblem: null,
      share: null,
      saved: 'saved',
      failures: [],
      runProblems: [],
      player: null,

      edit: (text) => set({ text }),
      answered: (text, result) => set({ checked: { text, result } }),
      save: () => set({ saved: saveWork(deps.storage, get().text) }),
      replaceWork: (next, question) => {
        const { text, lastLoaded } = get();
        if (text !== lastLoaded && text !== next && !deps.confirm(question)) return;
        load(next);
      },
      openLink: (param) => {
        const decoded = decodeRun(param);
        if (!decoded.ok || !decoded.run.scenario) {
          set({ linkProblem: decoded.ok ? 'this link holds a lesson run, not a workbench scenario' : decoded.message });
          return;
        }
        const linked = scenarioYaml(
          decoded.run.scenario,
          'Opened from a share link (links carry the scenario, not its comments).',
          decoded.run.config,
        );
        const { text, lastLoaded } = get();
        if (linked === text) return;
        if (text === TEMPLATE || text === lastLoaded) load(linked);
        else set({ pendingLink: { text: linked, title: decoded.run.scenario.title } });
      },
      acceptLink: () => {
        const link = get().pendingLink;
        if (link) load(link.text);
        set({ pendingLink: null });
      },
      keepWork: () => set({ pendingLink: null }),
      fileRead: (read) => {
        set({ fileProblem: read.ok ? null : read.message });
        if (read.ok)
          get().replaceWork(read.text, `Replace your scenario with ${read.name}? Your changes will be lost.`);
      },
      run: async () => {
        const ran = get().text;
        const result = await deps.checkFully(ran);
        set({
          checked: { text: ran, result },
          ...(result.ok ? { running: { text: ran, scenario: result.scenario } } : {}),
        });
      },
      loadRun: (run) => {
        const scenario = valid();
        if (!scenario) return;
        const config: RunConfig = { seed: run.seed, fencing: scenario.resource.fencing, actions: run.actions };
        const { text, running } = get();
        const store = playerHere();
        if (store && running?.text === text) store.getState().load(config);
        else set({ running: { text, scenario, run: config } });
      },
      watchPlayer: (text, store) => {
        set({ player: { text, store }, failures: scriptFailures(store.getState().events) });
        return store.subscribe((s, before) => {
          if (s.events !== before.events) set({ failures: scriptFailures(s.events) });
        });
      },
      setRunProblems: (runProblems) => set({ runProblems }),
      makeShareLink: (pageUrl) => {
        const scenario = valid();
        if (!scenario) {
          const count = workbenchView(get()).problems.length;
          set({
            share: {
              problem: `Fix the ${count || 'listed'} problem${count === 1 ? '' : 's'} first: a link carries a valid scenario.`,
            },
          });
          return null;
        }
        try {
          // A run loaded in the player (a counterexample) travels with the link.
          const config = playerHere()?.getState().config ?? {
            seed: scenario.seed,
            fencing: scenario.resource.fencing,
            actions: [],
          };
          const url = shareUrl(pageUrl, encodeRun({ scenarioId: scenario.id, config, scenario }));
          set({ share: { url } });
          return url;
        } catch (error) {
          set({ share: { problem: error instanceof Error ? error.message : String(error) } });
          return null;
        }
      },
      lessonFile: (course) => {
        const scenario = valid();
        if (!scenario) return null;
        // A run loaded in the player (a counterexample Break it found) becomes the lesson's scenario:
        // its faults as script steps, its seed, and what it breaks as the lesson's expect.
        const player = playerHere()?.getState();
        const changed =
          player &&
          (player.config.actions.length > 0 ||
            player.config.seed !== scenario.seed ||
            player.config.fencing !== scenario.resource.fencing);
        const body = changed ? runAsScenarioYaml(scenario, player.config, player.verdicts) : get().text;
        return { name: fileNameFor(scenario.id, 'md'), text: lessonSkeleton(body, scenario, course) };
      },
    };
  });
}
