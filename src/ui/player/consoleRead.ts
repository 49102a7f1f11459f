import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Scenario } from '../../scenario/schema/schema';
import { Simulation, type RunConfig } from '../../scenario/running/simulation';
import { simTime } from '../../sim/time';

/** A console command that changes nothing (see `changesNothing`), asked at a moment of the run. */
export interface ConsoleRead {
  atMs: number;
  node: string;
  argv: string[];
}

/**
 * Answers a read at its moment without making it part of the run. A throwaway replay of the run
 * gets the read as one more action, exactly as a written command would be run, and stops once
 * the node has answered: the reply is what the node said at that moment, while the run itself,
 * its share link and its fingerprint stay as they were. The lines are redis-cli's, or null when
 * the node did not answer (it was crashed or paused). `onProgress`: see RunOptions.onProgress.
 */
export function answerRead(
  scenario: Scenario,
  config: RunConfig,
  read: ConsoleRead,
  scripts?: ScriptEngine,
  onProgress?: () => void,
): string[] | null {
  const actions = [
    ...config.actions,
    { at: simTime(read.atMs), do: 'command' as const, target: read.node, argv: read.argv },
  ];
  const simulation = new Simulation(scenario, { ...config, actions, onProgress }, scripts);
  const trace = simulation.sim.trace;
  while (
    simulation.sim.kernel.nextAt() !== undefined &&
    simulation.sim.kernel.nextAt()! <= read.atMs &&
    simulation.step()
  );
  // Several learner commands may share the moment; the read was added last, so it ran last.
  for (let i = trace.length - 1; i >= 0; i--) {
    const e = trace.get(i);
    if (e.at !== read.atMs) break;
    if (
      e.kind !== 'action.apply' ||
      e.data.action !== 'command' ||
      e.data.source !== 'learner' ||
      e.actor !== read.node
    )
      continue;
    // Before it answers, a node over its maxmemory evicts (as Redis does before any command), so
    // its reply may come after eviction events of the same moment.
    for (let j = i + 1; j < trace.length && trace.get(j).at === e.at; j++) {
      const next = trace.get(j);
      if (next.kind === 'redis.command' && next.data.from === 'console' && next.actor === read.node)
        return next.data.reply.split('\n');
      if (next.kind !== 'redis.evict') return null;
    }
    return null;
  }
  return null;
}
