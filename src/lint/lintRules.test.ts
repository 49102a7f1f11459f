import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { importCycles } from './importCycles';

/**
 * The lint rules that keep the layers apart (DESIGN.md §2) and the modules acyclic must be able
 * to fail: each test lints a deliberately wrong file with the project's own eslint.config.js.
 */
let eslint: ESLint;
beforeAll(async () => {
  // ignore: false, so the cycle fixtures (ignored by `npx eslint .`) are linted here.
  eslint = new ESLint({ overrideConfigFile: 'eslint.config.js', ignore: false });
  // The first lint loads the config and its plugins, and the first import import-x/no-cycle
  // follows reads the whole graph below it (34 s at load 10): do both here, so each test times
  // only its own lint.
  await eslint.lintText(
    "import { Simulation } from '../scenario/running/simulation';\nexport const s = Simulation;\n",
    { filePath: 'src/ui/warmup.ts' },
  );
}, 120_000);

/** The messages ESLint gives for `code` saved as `filePath`. */
async function lint(filePath: string, code: string): Promise<{ ruleId: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

const layerErrors = async (filePath: string, code: string) =>
  (await lint(filePath, code)).filter((m) => m.ruleId === 'no-restricted-imports');

describe('layer rules', { timeout: 30_000 }, () => {
  it('refuse an import the layer table forbids, naming the rule', async () => {
    const errors = await layerErrors(
      'src/sim/probe.ts',
      "import { Simulation } from '../scenario/running/simulation';\nexport const s = Simulation;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain(
      'Layer rule (DESIGN.md §2): src/sim is the kernel: it imports nothing of ours.',
    );
  });

  it('allow what the table allows', async () => {
    expect(
      await layerErrors(
        'src/actors/probe.ts',
        "import type { Sim } from '../sim/sim';\nimport type { Network } from '../net/network';\nexport type X = [Sim, Network];\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src/check/probe.ts',
        "import type { TraceEvent } from '../sim/traceEvents';\nexport type X = TraceEvent;\n",
      ),
    ).toEqual([]);
  });

  it.each([
    ['src/net/probe.ts', '../redis/server'],
    ['src/redis/lua/probe.ts', '../../actors/recipes/lockScripts'],
    ['src/actors/probe.ts', '../check/invariants'],
    ['src/actors/client/probe.ts', '../../check/invariants'],
    ['src/check/probe.ts', '../scenario/running/simulation'],
    ['src/scenario/probe.ts', '../lessons/parse'],
    ['src/scenario/schema/probe.ts', '../text/parse'],
    ['src/scenario/schema/probe.ts', '../running/simulation'],
    ['src/scenario/text/probe.ts', '../running/simulation'],
    ['src/scenario/text/probe.ts', '../../lessons/parse'],
    ['src/lessons/probe.ts', '../timeline/model'],
    ['src/cli/probe.ts', '../timeline/model'],
    ['src/cli/probe.ts', '../ui/player/inspect'],
    ['src/timeline/probe.ts', '../scenario/running/simulation'],
    ['src/timeline/layers/probe.ts', '../../check/invariants'],
    ['src/timeline/probe.ts', 'react'],
  ])('%s may not import %s', async (filePath, source) => {
    expect(await layerErrors(filePath, `import * as m from '${source}';\nexport const x = m;\n`)).toHaveLength(1);
  });

  it('let the timeline read the one belief rule in check/beliefs, but nothing else of check', async () => {
    expect(
      await layerErrors(
        'src/timeline/probe.ts',
        "import { beliefsOf } from '../check/beliefs';\nexport const b = beliefsOf;\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src/timeline/probe.ts',
        "import { runCheckers } from '../check/invariants';\nexport const r = runCheckers;\n",
      ),
    ).toHaveLength(1);
  });

  it('let the timeline take only types from the kernel (and its time formatting)', async () => {
    const sim = async (code: string) =>
      (await lint('src/timeline/probe.ts', code)).filter(
        (m) => m.ruleId === '@typescript-eslint/no-restricted-imports',
      );
    expect(await sim("import { Trace } from '../sim/trace';\nexport const t = new Trace();\n")).toHaveLength(1);
    expect(await sim("import type { Trace } from '../sim/trace';\nexport type T = Trace;\n")).toEqual([]);
    expect(await sim("import { formatMs } from '../sim/time';\nexport const f = formatMs;\n")).toEqual([]);
  });

  it('keep the timeline off the global document (it is handed one)', async () => {
    const errors = (
      await lint('src/timeline/probe.ts', "export const make = () => document.createElement('div');\n")
    ).filter((m) => m.ruleId === 'no-restricted-globals');
    expect(errors).toHaveLength(1);
  });

  it('let tests drive a layer through the layers above it', async () => {
    expect(
      await layerErrors(
        'src/check/probe.test.ts',
        "import { runYaml } from '../testing/testKit';\nexport const r = runYaml;\n",
      ),
    ).toEqual([]);
  });
});

describe('no import cycles', () => {
  it('import-x/no-cycle reports a cycle', async () => {
    const [result] = await eslint.lintFiles(['src/lint/fixtures/cycle/ping.ts']);
    expect(result!.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  }, 30_000);

  it('importCycles() finds a cycle through type-only imports too (no-cycle skips those)', async () => {
    const [result] = await eslint.lintFiles(['src/lint/fixtures/typeCycle/left.ts']);
    expect(result!.messages).toEqual([]);
    expect(importCycles('src/lint/fixtures', { include: (f) => f.endsWith('.ts') })).toEqual([
      ['src/lint/fixtures/cycle/ping.ts', 'src/lint/fixtures/cycle/pong.ts'],
      ['src/lint/fixtures/typeCycle/left.ts', 'src/lint/fixtures/typeCycle/right.ts'],
    ]);
  }, 30_000);

  it('src has no import cycles, type-only imports included', () => {
    expect(importCycles('src'), 'import cycles: break them with a small interface module').toEqual([]);
  });
});
