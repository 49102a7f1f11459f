import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const INPUT = 'SET k v\nGET k\nEVAL "return redis.call(\'GET\', KEYS[1])" 1 k\nKEYS *\n';
const OUTPUT = 'OK\n"v"\n"v"\n1) "k"\n';

/**
 * Runs `npm run redis-sim`'s command on INPUT; resolves with its output once it exits. A process
 * that keeps running `exitMs` after printing all of OUTPUT is hung (something holds its event
 * loop open); one that takes long to start on a busy machine is only slow, so the wait for the
 * exit starts when the output is complete.
 */
function runOnce(exitMs: number): Promise<{ stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/redisSim.ts'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    const hung = () => {
      child.kill('SIGKILL');
      reject(
        new Error(`redis-sim printed its output and did not exit within ${exitMs} ms; printed:\n${stdout}\n${stderr}`),
      );
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('latin1');
      if (stdout.length >= OUTPUT.length && !timer) timer = setTimeout(hung, exitMs);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ stdout, code });
    });
    child.stdin.end(INPUT);
  });
}

test('redis-sim exits promptly once its output is written, run after run', async () => {
  for (let i = 0; i < 10; i++) {
    const { stdout, code } = await runOnce(3000);
    expect(code).toBe(0);
    expect(stdout).toBe(OUTPUT);
  }
}, 300_000);
