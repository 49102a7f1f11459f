import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/testing/freePort';

/**
 * The site built with the test-only fixture lessons (LOCKSTEP_FIXTURES=1) into a folder of its
 * own and served under a sub-path on a free port, so the published build never holds them.
 * `start` in a beforeAll (it builds: allow minutes), `stop` in the afterAll.
 */
export class FixtureSite {
  private server: ChildProcess | undefined;
  private outDir = '';
  /** The site's address, ending in `/lockstep/`; set by start(). */
  base = '';

  async start(name: string): Promise<void> {
    this.outDir = mkdtempSync(join(tmpdir(), `lockstep-e2e-${name}-`));
    const build = spawnSync('npx', ['vite', 'build', '--outDir', this.outDir, '--emptyOutDir', '--logLevel', 'error'], {
      env: { ...process.env, LOCKSTEP_FIXTURES: '1' },
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`fixtures build failed:\n${build.stderr}`);
    const port = await freePort();
    this.server = spawn(
      'npx',
      [
        'vite',
        'preview',
        '--outDir',
        this.outDir,
        '--port',
        String(port),
        '--strictPort',
        '--host',
        '127.0.0.1',
        '--base',
        '/lockstep/',
      ],
      { detached: true, stdio: 'ignore' },
    );
    this.base = `http://127.0.0.1:${port}/lockstep/`;
    await waitFor(this.base);
  }

  stop(): void {
    if (this.server?.pid) process.kill(-this.server.pid);
    if (this.outDir) rmSync(this.outDir, { recursive: true, force: true });
  }
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`preview server at ${url} did not start`);
}
