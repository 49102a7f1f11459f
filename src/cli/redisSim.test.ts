import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const INPUT = 'SET k v\nGET k\nEVAL "return redis.call(\'GET\', KEYS[1])" 1 k\nKEYS *\n';

/** Runs `npm run redis-sim`'s command on INPUT; resolves with its output and how long it took. */
function runOnce(timeoutMs: number): Promise<{ stdout: string; code: number | null; ms: number }> {
  return new Promise((resolve, reject) => {
    const startMs = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/redisSim.ts'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('latin1')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-sim did not exit within ${timeoutMs} ms; printed:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ stdout, code, ms: performance.now() - startMs });
    });
    child.stdin.end(INPUT);
  });
}

test('redis-sim exits promptly once its output is written, run after run', async () => {
  for (let i = 0; i < 10; i++) {
    const { stdout, code } = await runOnce(8000);
    expect(code).toBe(0);
    expect(stdout).toBe('OK\n"v"\n"v"\n1) "k"\n');
  }
}, 120_000);
