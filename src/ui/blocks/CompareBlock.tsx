import type { CompareRun } from '../../lessons/types';
import { ScenarioPlayer } from '../player/ScenarioPlayer';

/** The same scenario twice, with one thing changed, so the learner can see the difference. */
export function CompareBlock({ title, left, right }: { title?: string; left: CompareRun; right: CompareRun }) {
  return (
    <section className="block compare" aria-label={title ?? 'Compare two runs'}>
      <p className="block-kicker" aria-hidden="true">Compare</p>
      {title && <h3 className="block-title">{title}</h3>}
      <div className="compare-grid">
        {[left, right].map((run) => (
          <div key={run.label} className="compare-side">
            <h4>{run.label}</h4>
            <ScenarioPlayer scenario={run.scenario} />
          </div>
        ))}
      </div>
    </section>
  );
}
