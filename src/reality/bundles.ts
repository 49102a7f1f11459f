import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** Where the child programs are bundled (beside the bench's bundle, in node_modules' cache). */
const OUT_DIR = fileURLToPath(new URL('../../node_modules/.cache/lockstep/reality/', import.meta.url));

export interface Bundles {
  lockClient: string;
  resource: string;
}

let built: Promise<Bundles> | undefined;

/**
 * Bundles the child programs to plain JavaScript once per harness process: a client restarted
 * mid-run must be up in tens of milliseconds, and plain `node` starts several times faster than
 * a TypeScript loader would. ioredis stays external (node_modules).
 */
export function childBundles(): Promise<Bundles> {
  built ??= build({
    entryPoints: {
      lockClient: fileURLToPath(new URL('./lockClientProcess.ts', import.meta.url)),
      resource: fileURLToPath(new URL('./resourceProcess.ts', import.meta.url)),
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  }).then(() => ({ lockClient: `${OUT_DIR}lockClient.mjs`, resource: `${OUT_DIR}resource.mjs` }));
  return built;
}
