import { fillPlaceholders } from '../../actors/client/clientSteps';
import { commandTable, resolveCommand } from '../../redis/commandTable';
import { RedisServer } from '../../redis/server';
import { didYouMean, type Report } from '../diagnostic';
import type { Scenario } from '../schema/schema';

/**
 * Commands whose reply depends on what a script does or on scripts loaded earlier: only their
 * name and arity are checked, since a scratch server has no Lua engine and no script cache.
 */
const SCRIPT_COMMANDS = new Set([
  'eval',
  'evalsha',
  'eval_ro',
  'evalsha_ro',
  'script',
  'fcall',
  'fcall_ro',
  'function',
]);

/** Upper-case command names, for "did you mean" (authors write them upper case). */
const COMMAND_NAMES = [...commandTable.keys()].map((n) => n.toUpperCase());

/**
 * Checks every Redis command in a step list with the simulated Redis's own rules, so a typo or a
 * wrong option fails `lessons:check` instead of being retried at run time until the horizon.
 * Each command runs, with its placeholders filled, on a fresh scratch server that holds no keys:
 * the error text is exactly what the simulated (and real) Redis would answer. Only errors a
 * command gives on an empty server are syntax: a state-dependent one (WRONGTYPE) cannot happen
 * there, and script commands are checked for name and arity alone.
 */
export function checkStepCommands(scenario: Scenario, report: Report): void {
  scenario.clients.forEach((c, i) => {
    c.steps?.forEach((step, j) => {
      if (step.do !== 'redis') return;
      const argv = fillPlaceholders(step.argv, {
        value: 'check-value',
        token: 1,
        key: c.key ?? 'lock',
        ttlMs: c.ttl,
        id: c.id,
      });
      const problem = commandProblem([...step.argv], argv, scenario.redis.cluster);
      if (problem)
        report(
          ['clients', i, 'steps', j, 'redis'],
          `Redis would refuse '${step.argv.join(' ')}': ${problem.reply}`,
          problem.hint,
        );
    });
  });
}

/**
 * The error Redis answers to a command on an empty server, with a hint; undefined when it runs.
 * Name and arity are judged on the words as written (so the message quotes the author's
 * `{value}`), the rest on `filled`, the words with placeholders filled in.
 */
export function commandProblem(
  argv: string[],
  filled: string[] = argv,
  cluster = false,
): { reply: string; hint?: string } | undefined {
  const resolved = resolveCommand(argv);
  const name = (argv[0] ?? '').toLowerCase();
  if (!resolved.ok) {
    const reply = resolved.reply.type === 'error' ? resolved.reply.value.trimEnd() : 'error';
    if (resolved.unknown && !commandTable.has(name)) {
      const guess = didYouMean(argv[0] ?? '', COMMAND_NAMES);
      return {
        reply,
        hint: guess
          ? `did you mean ${guess}?`
          : 'the simulator supports the commands a lock needs; see src/redis/README.md',
      };
    }
    return { reply, ...arityHint(resolved.reply.type === 'error' ? resolved.reply.value : '', argv) };
  }
  if (SCRIPT_COMMANDS.has(name)) return undefined;
  const scratch = new RedisServer({ clock: () => 0, random: () => 0.5, clusterEnabled: cluster });
  const reply = scratch.exec(filled);
  return reply.type === 'error' ? { reply: reply.value } : undefined;
}

function arityHint(reply: string, argv: readonly string[]): { hint: string } | Record<string, never> {
  const spec = commandTable.get((argv[0] ?? '').toLowerCase());
  if (!spec || !reply.includes('wrong number of arguments')) return {};
  const words = (n: number) => `${n} word${n === 1 ? '' : 's'}`;
  const wants = spec.arity > 0 ? `exactly ${words(spec.arity)}` : `at least ${words(-spec.arity)}`;
  return { hint: `${argv[0]?.toUpperCase()} takes ${wants} counting its name; this step has ${words(argv.length)}` };
}
