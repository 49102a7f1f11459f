import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { machineMutants } from './machineMutants';

const file = 'src/actors/client/circuitBreakerMachine.ts';
const source = readFileSync(file, 'utf8');

describe('the mutants of a machine', () => {
  const mutants = machineMutants(file, source);

  it('makes one change each, every one of which still parses', () => {
    for (const m of mutants) {
      expect(m.source, m.description).not.toBe(source);
      const parsed = ts.createSourceFile(file, m.source, ts.ScriptTarget.Latest, true);
      expect((parsed as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics, m.description).toEqual([]);
    }
    expect(new Set(mutants.map((m) => m.description)).size).toBe(mutants.length);
  });

  it('swaps targets within their region, negates guards with an imported not, and flips guard operators', () => {
    const named = (description: string) => mutants.find((m) => m.description === description);
    const swapped = named("in halfOpen, FAILED: target 'open' → 'closed'");
    expect(swapped?.line).toBe(source.split('\n').findIndex((l) => l.includes("FAILED: 'open'")) + 1);
    expect(swapped?.source).toContain("FAILED: 'closed',");
    expect(named("in closed, FAILED [1]: guard 'lastStraw' negated")?.source).toMatch(
      /import \{[^}]*\bnot\b[^}]*\} from 'xstate';[\s\S]*guard: not\('lastStraw'\)/,
    );
    expect(named('guard lastStraw: `context.failedInRow + 1 >= context.failures` with >')?.source).toContain(
      'context.failedInRow + 1 > context.failures',
    );
    expect(named('action forgetFailures: assign of failedInRow removed')?.source).toMatch(
      /forgetFailures: assign\(\{\s*\}\)/,
    );
    expect(mutants.map((m) => m.operator).sort()).toEqual(
      expect.arrayContaining(['action', 'assign', 'branch', 'event', 'guard', 'literal', 'operator', 'target']),
    );
  });
});
