import { useState } from 'react';
import { pairVerdicts } from '../../reality/verdicts';
import { MAX_REAL_RUN_CHARS, readRealRun, type RealRun } from '../../reality/runFile';
import type { Verdict } from '../../check/verdict';
import { formatMs } from '../../sim/time';
import { FileDrop } from '../files/FileDrop';
import { readChosenFile } from '../files/readChosenFile';
import { TimelineView } from '../timeline/TimelineView';
import './recorded.css';

const judged = (v: Verdict | null) =>
  v === null ? 'not judged' : v.holds ? 'holds' : `broken at ${formatMs(v.atMs ?? 0)}`;

/**
 * A run recorded on real processes (`npm run reality -- … --out run.json`), opened in the site:
 * its space-time diagram, drawn from what real redis-server and client processes did, and the
 * simulator's verdicts beside the real run's. The file is read here and goes nowhere.
 */
export function RecordedRunPage() {
  const [run, setRun] = useState<{ name: string; run: RealRun } | null>(null);
  const [problem, setProblem] = useState('');

  async function open(file: File) {
    const read = await readChosenFile(file, MAX_REAL_RUN_CHARS, 'a recorded run');
    const parsed = read.ok ? readRealRun(read.text, file.name) : read;
    if (!parsed.ok) {
      setProblem(parsed.message);
      return;
    }
    setProblem('');
    setRun({ name: file.name, run: parsed.run });
  }

  return (
    <div className="recorded-page">
      <h1 tabIndex={-1}>A run recorded on real processes</h1>
      <p>
        <code>npm run reality -- lessons/scenarios/paused-barista.yaml --out run.json</code> plays a scenario on real{' '}
        <code>redis-server</code> and client processes on your machine (a pause is a real <code>SIGSTOP</code>) and
        writes down what happened. Open that file here to see the real run drawn as the simulator draws its own, with
        both sides’ verdicts. The file stays on your device.
      </p>
      <FileDrop
        label="Choose a recorded run (.json)"
        accept=".json,application/json"
        onFile={(file) => void open(file)}
      >
        <p className="muted">or drop it here.</p>
      </FileDrop>
      {problem && (
        <p role="alert" className="recorded-problem">
          {problem}
        </p>
      )}
      {run && <RecordedRun key={run.name} name={run.name} run={run.run} />}
    </div>
  );
}

function RecordedRun({ name, run }: { name: string; run: RealRun }) {
  const pairs = pairVerdicts(run.verdicts.simulator, run.verdicts.reality);
  const differ = pairs.filter((p) => !p.agree).length;
  const last = run.trace.length - 1;
  return (
    <section className="recorded-run" aria-labelledby="recorded-run-title">
      <h2 id="recorded-run-title">{run.scenario}, on real processes</h2>
      <p role="status">
        {name}: {run.trace.length.toLocaleString('en')} events, recorded at scale {run.scale} (every duration, TTLs
        included, times {run.scale}) in {formatMs(run.wallMs)} of real time; the run{' '}
        {run.ended === 'idle' ? 'ended by itself' : 'was stopped at its horizon'}. Times below are scenario times.{' '}
        {differ === 0
          ? 'Every verdict agrees with the simulator’s.'
          : `${differ} verdict${differ === 1 ? '' : 's'} differ from the simulator’s.`}
      </p>
      <div className="recorded-table-frame">
        <table className="recorded-table">
          <caption className="visually-hidden">Verdicts of the simulator and of the real run</caption>
          <thead>
            <tr>
              <th scope="col">Invariant</th>
              <th scope="col">In the simulator</th>
              <th scope="col">On real processes</th>
            </tr>
          </thead>
          <tbody>
            {pairs.map((p) => (
              <tr key={p.invariant} className={p.agree ? undefined : 'recorded-differs'}>
                <th scope="row">{p.invariant}</th>
                <td>{judged(p.sim)}</td>
                <td>
                  {judged(p.real)}
                  {!p.agree && <strong> (differs)</strong>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <TimelineView
        title={`Space-time diagram of ${run.scenario} on real processes`}
        events={run.trace}
        verdicts={run.verdicts.reality}
        cursor={last}
      />
    </section>
  );
}
