import { useEffect, useRef, useState } from 'react';
import { formatDiagnostic, type Diagnostic } from '../../scenario/diagnostic';
import { MAX_YAML_CHARS } from '../../scenario/text/inputBounds';
import { parseScenario } from '../../scenario/text/parse';
import { readChosenFile } from '../files/readChosenFile';
import type { Scenario } from '../../scenario/schema/schema';
import type { PlayerStore } from '../player/playerStore';
import { sandboxFirstRun } from '../player/firstRuns';
import { ScenarioPlayer } from '../player/ScenarioPlayer';
import { decodeRun } from '../player/shareLink';
import { useRoute } from '../routing/useRoute';
import { SandboxForm } from './SandboxForm';
import { exportScenarioYaml } from '../../scenario/text/toYaml';
import { editScenario } from '../../scenario/running/storyEdits';
import { DEFAULT_SANDBOX, sandboxScenario, type SandboxSpec } from './sandboxModel';
import { RECORDED_HREF } from '../routing/route';
import { FileDrop } from '../files/FileDrop';
import './playground.css';

/** The world the sandbox opens with (DEFAULT_SANDBOX), built once. */
const OPENING_WORLD = openingWorld();
/** The same, as the player's key spells it. */
const OPENING_KEY = JSON.stringify(OPENING_WORLD);

function openingWorld(): Scenario {
  const built = sandboxScenario(DEFAULT_SANDBOX);
  if (!built.ok) throw new Error(built.message);
  return built.scenario;
}

/**
 * The sandbox: build a world from a form (Redis nodes, clients and their recipes, the
 * resource), or open a scenario YAML file, then break it with every control. Whatever the
 * learner did exports as a scenario file an instructor can put in lessons/.
 */
export function SandboxPage() {
  const route = useRoute();
  const runParam = route.name === 'sandbox' ? route.params.get('run') : null;
  const [spec, setSpec] = useState<SandboxSpec>(DEFAULT_SANDBOX);
  const [scenario, setScenario] = useState<Scenario>(() => linkedScenario(runParam) ?? OPENING_WORLD);
  const [formError, setFormError] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [diagnostics, setDiagnostics] = useState<Diagnostic[]>([]);
  const [pending, setPending] = useState<Scenario | null>(null);
  const storeRef = useRef<PlayerStore | null>(null);
  const dirty = useRef(false);

  // A sandbox link opened while the sandbox is showing: ask before replacing the learner's world.
  useEffect(() => {
    const linked = linkedScenario(runParam);
    if (!linked || JSON.stringify(linked) === JSON.stringify(scenario)) return;
    const changed = dirty.current || (storeRef.current?.getState().config.actions.length ?? 0) > 0;
    if (changed) setPending(linked);
    else setScenario(linked);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runParam]);

  const runForm = () => {
    const built = sandboxScenario(spec);
    if (!built.ok) {
      setFormError(built.message);
      return;
    }
    setFormError(null);
    setFileName(null);
    setDiagnostics([]);
    dirty.current = true;
    setScenario(built.scenario);
  };

  const openFile = async (file: File) => {
    const read = await readChosenFile(file, MAX_YAML_CHARS, 'a scenario file');
    const parsed = read.ok
      ? parseScenario(read.text, { file: file.name, line: 1 })
      : { ok: false as const, diagnostics: [{ file: file.name, line: 1, col: 1, message: read.message }] };
    setFileName(file.name);
    if (!parsed.ok) {
      setDiagnostics(parsed.diagnostics);
      return;
    }
    setDiagnostics([]);
    dirty.current = true;
    setScenario(parsed.scenario);
  };

  const exportFile = () => {
    const config = storeRef.current?.getState().config;
    const yaml = exportScenarioYaml(
      editScenario(scenario, config?.edits ?? []),
      config?.actions ?? [],
      config?.fencing ?? scenario.resource.fencing,
      config?.seed,
    );
    const url = URL.createObjectURL(new Blob([yaml], { type: 'application/yaml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${scenario.id}.yaml`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const worldKey = JSON.stringify(scenario);
  return (
    <div className="sandbox">
      <header className="sandbox-header">
        <h1 tabIndex={-1}>Sandbox</h1>
        <p>
          Build your own coffee shop: pick Redis nodes, clients and their lock recipes, run it, then break it. Or open a
          scenario file.
        </p>
      </header>

      {pending && (
        <div className="player-notice" role="alert">
          <p>This link holds a shared sandbox run (“{pending.title}”). Loading it replaces the world you built here.</p>
          <button
            type="button"
            onClick={() => {
              setScenario(pending);
              setPending(null);
              dirty.current = false;
            }}
          >
            Load the shared run
          </button>{' '}
          <button type="button" onClick={() => setPending(null)}>
            Keep my world
          </button>
        </div>
      )}

      <div className="sandbox-setup">
        <section className="sandbox-card" aria-labelledby="sandbox-build">
          <h2 id="sandbox-build">Build a scenario</h2>
          <SandboxForm spec={spec} onChange={setSpec} />
          <div className="sandbox-actions">
            <button type="button" className="button button-primary" onClick={runForm}>
              Run this scenario
            </button>
          </div>
          {formError && (
            <p role="alert" className="sandbox-error">
              {formError}
            </p>
          )}
        </section>

        <section className="sandbox-card" aria-labelledby="sandbox-open">
          <h2 id="sandbox-open">Open a scenario file</h2>
          <FileDrop
            label="Choose a YAML file"
            accept=".yaml,.yml,text/yaml,application/yaml"
            onFile={(file) => void openFile(file)}
          >
            <p className="muted">or drop it here. Files stay on your device.</p>
            <p className="muted">
              A run recorded on real processes (<code>npm run reality -- … --out run.json</code>)?{' '}
              <a href={RECORDED_HREF}>Open it on the recorded-run page</a>.
            </p>
          </FileDrop>
          {fileName && diagnostics.length === 0 && <p role="status">Running {fileName}.</p>}
          {diagnostics.length > 0 && (
            <div role="alert" className="sandbox-diagnostics">
              <p>
                {fileName} has {diagnostics.length} problem{diagnostics.length === 1 ? '' : 's'}:
              </p>
              <ul>
                {diagnostics.map((d, i) => (
                  <li key={i}>
                    <code>{formatDiagnostic(d)}</code>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <h2 className="sandbox-export-title">Save what you made</h2>
          <p className="muted">
            The scenario and everything you did to it (pauses, partitions, console commands) as one file for
            lessons/scenarios/.
          </p>
          <button type="button" className="button button-secondary" onClick={exportFile}>
            Export as scenario file
          </button>
        </section>
      </div>

      <ScenarioPlayer
        key={worldKey}
        scenario={scenario}
        embedScenarioInLink
        onStore={(s) => (storeRef.current = s)}
        // The opening world's run ships with the site: shown without waiting for the worker.
        {...(worldKey === OPENING_KEY ? { firstRun: sandboxFirstRun() } : {})}
      />
    </div>
  );
}

/** The scenario a sandbox link carries, if the address has a valid one. */
function linkedScenario(param: string | null): Scenario | null {
  if (!param) return null;
  const decoded = decodeRun(param);
  return decoded.ok && decoded.run.scenario ? decoded.run.scenario : null;
}
