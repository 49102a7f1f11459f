import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layerReach, type LayerTable } from './layerReach';

const table = JSON.parse(readFileSync(new URL('./layers.json', import.meta.url), 'utf8')) as LayerTable;

describe('the layer table holds for what a layer reaches, not only for what it imports', () => {
  it('src: no layer reaches a folder its layer may not import, through any other folder', () => {
    expect(layerReach('src', table)).toEqual([]);
  });

  it('finds a layer reaching, through a folder it may import, one it may not, naming the path', () => {
    // The table as it was when the CLI reached the UI through a bench: cli could import bench.
    const loose: LayerTable = {
      folders: ['cli', 'bench', 'ui'],
      layers: { cli: { may: ['bench'], why: 'src/cli runs in Node: everything but src/ui.' } },
    };
    const root = mkdtempSync(join(tmpdir(), 'reach-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('cli/benchUi.ts', "import { figures } from '../bench/explorerUi';\nexport const f = figures;\n");
    write(
      'bench/explorerUi.ts',
      "import { TEMPLATE } from '../ui/workbench/workbenchModel';\nexport const figures = TEMPLATE;\n",
    );
    write('ui/workbench/workbenchModel.ts', "export const TEMPLATE = 'id: my-lock';\n");
    expect(layerReach(root, loose, root)).toEqual([
      'cli/benchUi.ts → bench/explorerUi.ts → ui/workbench/workbenchModel.ts: src/cli runs in Node: everything but src/ui.',
    ]);
    // With today's table the first step is already refused.
    expect(layerReach(root, table, root)[0]).toMatch(
      /^cli\/benchUi\.ts → bench\/explorerUi\.ts: src\/cli runs in Node/,
    );
  });
});
