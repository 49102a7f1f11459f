import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): { pid: number; command: string }[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === pid)
    .map((m) => ({ pid: Number(m[1]), command: m[3]! }));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A harness that makes a temporary directory (the sentinels' config files, sentinels.ts) and is
 * then killed outright: the reaper removes the directory as it kills the processes.
 */
const MAKES_A_DIR = `
import { Children } from './src/reality/children.ts';
const dir = new Children().tempDir('lockstep-sentinel-');
process.stdout.write(dir + '\\n');
setInterval(() => undefined, 1000);
`;

/**
 * Nothing the harness starts outlives it: the harness is killed in the middle of a run (lesson
 * 21's Redlock pause at full scale, 19 s: five redis-servers, the resource and two clients)
 * and every process it had started is gone soon after, and so is a temporary directory it made.
 * SIGTERM is handled by the harness itself; SIGKILL cannot be, and is the reaper's job.
 */
describe.concurrent('the harness cleans up', () => {
  it('leaves no temporary directory behind when it gets SIGKILL', async () => {
    const harness = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', MAKES_A_DIR], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const dir = await new Promise<string>((resolve) =>
      harness.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())),
    );
    expect(existsSync(dir)).toBe(true);
    harness.kill('SIGKILL');
    let kept = existsSync(dir);
    for (let i = 0; i < 50 && kept; i++) {
      await sleep(100);
      kept = existsSync(dir);
    }
    expect(kept).toBe(false);
  }, 60_000);

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`leaves no process behind when it gets ${signal} mid-run`, async () => {
      const harness = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/cli/reality.ts',
          'lessons/21-redlock-pauses-and-delays.md#c2-redlock-pause',
          '--scale',
          '1',
        ],
        { stdio: 'ignore' },
      );
      const exited = new Promise((resolve) => harness.once('exit', resolve));
      let started: { pid: number; command: string }[] = [];
      // Wait for the run to be under way: the five redis-servers, the resource and both clients.
      for (
        let i = 0;
        i < 900 &&
        started.filter((c) => /redis-server|reality\/(lockClient|resource)-[0-9a-f]+\.mjs/.test(c.command)).length < 8;
        i++
      ) {
        await sleep(100);
        started = childrenOf(harness.pid!);
      }
      expect(
        started.filter((c) => /redis-server|reality\/(lockClient|resource)-[0-9a-f]+\.mjs/.test(c.command)),
      ).toHaveLength(8);
      await sleep(1000);
      harness.kill(signal);
      await exited;
      let left = started.filter((c) => alive(c.pid));
      for (let i = 0; i < 50 && left.length > 0; i++) {
        await sleep(100);
        left = left.filter((c) => alive(c.pid));
      }
      expect(left.map((c) => c.command)).toEqual([]);
      // Starting a harness under tsx takes seconds on a loaded 2-core machine; the run itself is killed 1 s in.
    }, 120_000);
  }
});
