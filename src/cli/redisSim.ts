// `npm run redis-sim`: reads Redis commands on stdin, one per line, and prints exactly what
// `redis-cli --no-raw` prints for the same input against a fresh redis-server 7.0.
//
// This is the shell, so it may read the wall clock once: the simulated clock starts at
// Date.now() and only DEBUG SLEEP (or a blocking WAIT) moves it, without really sleeping.
import { readFileSync } from 'node:fs';
import { CliSession } from '../redis/session';
import { Prng } from '../sim/prng';
import type { ScriptEngine } from '../redis/scriptEngine';

/** Loads the Lua engine when src/redis/lua/index.ts exists; EVAL answers an error otherwise. */
async function loadScripts(): Promise<ScriptEngine | undefined> {
  const path = '../redis/lua/index';
  try {
    const module = (await import(path)) as { loadLuaEngine?: () => Promise<ScriptEngine> };
    return await module.loadLuaEngine?.();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

async function main(): Promise<void> {
  // Redis strings are bytes, so read and write latin1: one character per byte, both ways.
  const input = readFileSync(0).toString('latin1');
  const lines = input.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const scripts = await loadScripts();
  const session = new CliSession(Date.now(), { random: () => prng.float(), scripts });
  const prng = Prng.fromSeed(1);
  const out: string[] = [];
  for (const line of lines) {
    out.push(...session.runLine(line));
    if (session.closed) break;
  }
  // Exit as soon as the output is flushed rather than waiting for the event loop to drain:
  // the WebAssembly Lua module can keep Node alive after main() returns (about one run in
  // three on a busy machine printed everything and then never exited).
  process.stdout.write(Buffer.from(out.map((l) => `${l}\n`).join(''), 'latin1'), () => process.exit(0));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
