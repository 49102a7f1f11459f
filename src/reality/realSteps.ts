/**
 * A step list on real processes: the simulator's StepClient (src/actors/client/stepClient.ts)
 * with ioredis. Each step is reported as there (`step.start`, `step.done` with the answer as
 * redis-cli shows it), and what a step means to the lock as well (`lock.request`,
 * `lock.acquired`, `lock.busy`, `lock.released`, `lock.renewed`, `lock.lost`, `lock.failed`), so
 * the same checkers judge it. A busy acquiring step is retried by the retry policy (the
 * simulator's jitter draws), skipped, or ends the list, as the step says; an error reply ends it.
 */
import { fillPlaceholders, keyOf } from '../actors/client/clientSteps';
import type { Tries } from '../actors/client/retryPolicy';
import type { ReadResult } from '../actors/resources/resource';
import { formatReply } from '../redis/cliFormat';
import type { Answer, Ask, Master } from './masterConnection';
import type { ClientConfig, RealStep, Report } from './protocol';
import { asReply } from './replies';
import type { ResourceLine } from './resourceLine';

export interface StepDeps {
  masters: Master[];
  ask: Ask;
  report: (r: Report) => void;
  tries: Tries;
  resource: ResourceLine;
}

type RedisStep = Extract<RealStep, { do: 'redis' }>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `steps` once, top to bottom; resolves when the list ends or the client gives up. */
export async function runSteps(config: ClientConfig, steps: readonly RealStep[], deps: StepDeps): Promise<void> {
  const { id, value } = config;
  const ownKey = config.keys[0]!;
  const { report, tries } = deps;
  let token: number | null = null;
  let basis: ReadResult | null = null;
  const held = new Set<string>();
  const done = (index: number, result: string) => report({ kind: 'step.done', actor: id, data: { index, result } });

  /** One Redis step, retried while busy if it says so; false when the list ends here. */
  const command = async (index: number, step: RedisStep): Promise<boolean> => {
    for (;;) {
      report({ kind: 'step.start', actor: id, data: { index, detail: step.detail } });
      const argv = fillPlaceholders(step.argv, { value, token, key: ownKey, ttlMs: config.ttlRealMs, id });
      const key = keyOf(argv) ?? ownKey;
      if (step.as === 'acquire' && tries.failures === 0) report({ kind: 'lock.request', actor: id, data: { key } });
      const master = deps.masters.find((m) => m.id === step.node)!;
      const answer = await deps.ask(master, argv, config.timeoutRealMs);
      const text = answerText(answer);
      const reply = answer?.reply;
      if (step.as === 'acquire') {
        if (granted(reply)) {
          tries.reset();
          const issued = ['EVAL', 'EVALSHA', 'INCR'].includes(argv[0]!.toUpperCase()) && typeof reply === 'number';
          if (issued) token = reply;
          held.add(key);
          report({
            kind: 'lock.acquired',
            actor: id,
            data: { key, value, token: issued ? reply : null, ttlMs: step.leaseMs },
          });
          done(index, text);
          return true;
        }
        const reason = answer === null ? 'timeout' : reply instanceof Error ? 'error' : 'busy';
        if (reason !== 'error') report({ kind: 'lock.busy', actor: id, data: { key } });
        const delayMs = tries.failed(reason, step.ifBusy === 'retry');
        if (delayMs !== null) {
          done(index, `${text}: busy, retry in ${delayMs} ms`);
          await sleep(delayMs * config.scale);
          continue;
        }
        const attempts = tries.failures;
        tries.reset();
        if (reason === 'error') {
          report({ kind: 'lock.failed', actor: id, data: { key, attempts, error: (reply as Error).message } });
          done(index, `${text}: an error, stopping`);
          return false;
        }
        if (step.ifBusy === 'skip') {
          done(index, `${text}: busy, going on without the lock`);
          return true;
        }
        report({ kind: 'lock.failed', actor: id, data: { key, attempts } });
        done(index, `${text}: busy, giving up`);
        return false;
      }
      if (step.as === 'release' && answer !== null) {
        held.delete(key);
        report({ kind: 'lock.released', actor: id, data: { key, deleted: positive(reply) } });
      }
      // A token drawn on its own is kept whatever the lock is doing (INCR before SET: the bug).
      if (step.as === 'fence' && typeof reply === 'number') token = reply;
      if (step.as === 'renew' && answer !== null) {
        if (positive(reply))
          report({ kind: 'lock.renewed', actor: id, data: { key, ttlMs: step.leaseMs ?? config.ttlScenarioMs } });
        else if (held.delete(key)) report({ kind: 'lock.lost', actor: id, data: { key, reason: 'renewal refused' } });
      }
      done(index, text);
      return true;
    }
  };

  for (const [index, step] of steps.entries()) {
    if (step.do === 'redis') {
      if (!(await command(index, step))) return;
    } else if (step.do === 'wait') {
      report({ kind: 'step.start', actor: id, data: { index, detail: step.detail } });
      // A sleep keeps its deadline through a SIGSTOP, as a wait step's timer does in the simulator.
      await sleep(step.ms);
      done(index, 'waited');
    } else if (step.do === 'read') {
      report({ kind: 'step.start', actor: id, data: { index, detail: step.detail } });
      basis = await deps.resource.read();
      done(index, basis.value);
    } else {
      report({ kind: 'step.start', actor: id, data: { index, detail: step.detail } });
      done(index, (await deps.resource.write(token, basis)) ? 'accepted' : 'rejected');
    }
  }
}

/** OK, or a positive integer (SETNX's 1, a script's token): the command did what was asked. */
function granted(reply: unknown): boolean {
  return reply === 'OK' || positive(reply);
}

function positive(reply: unknown): reply is number {
  return typeof reply === 'number' && reply > 0;
}

/** An answer as redis-cli shows it (the simulator's step.done results). */
function answerText(answer: Answer): string {
  return answer === null ? 'no answer (timeout)' : formatReply(asReply(answer.reply));
}
