import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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
 *
 * Each bundle is stored under its content's hash and moved into place whole, never rewritten:
 * harnesses run side by side (the tests run several at once), and checkouts that share one
 * node_modules (git worktrees) may hold different code, so one harness must never start its
 * children from a file another is writing, or from another checkout's program.
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
    write: false,
    logLevel: 'warning',
  }).then(({ outputFiles }) => {
    mkdirSync(OUT_DIR, { recursive: true });
    const stored = new Map<string, string>();
    for (const file of outputFiles) {
      const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 16);
      const path = `${OUT_DIR}${basename(file.path, '.mjs')}-${hash}.mjs`;
      if (!existsSync(path)) {
        const partial = `${path}.${process.pid}.tmp`;
        writeFileSync(partial, file.contents);
        renameSync(partial, path);
      }
      stored.set(basename(file.path), path);
    }
    return { lockClient: stored.get('lockClient.mjs')!, resource: stored.get('resource.mjs')! };
  });
  return built;
}
