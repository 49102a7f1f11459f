import { bench, describe } from 'vitest';
import { RELEASE_IF_MINE } from '../actors/recipes/lockScripts';
import { bulk, type Reply } from '../redis/reply';
import type { ScriptRequest } from '../redis/scriptEngine';
import { loadLuaEngine } from '../redis/lua/index';

// Cost of EVAL inside the engine, without the server around it: `npx vitest bench
// src/bench/luaEngine`. It lives here, not beside the engine in src/redis, because it runs a lock
// recipe's script from src/actors, a layer src/redis may not import. Not a test: timings depend
// on the machine, so nothing here can fail.
// Each sample runs BATCH scripts, so the timer's own cost does not swamp a few microseconds:
// divide a sample's time by BATCH. Figures for both engines are in src/redis/lua/README.md.

const BATCH = 100;

const engine = await loadLuaEngine();

/** A GET that finds another client's value, as when a lock was lost and taken by someone else. */
const call = (): Reply => bulk('someone-else');

const release: ScriptRequest = { body: RELEASE_IF_MINE, sha: 'release', keys: ['lock'], args: ['tok'], call };
const returnOne: ScriptRequest = { body: 'return 1', sha: 'one', keys: [], args: [], call };

describe('EVAL in the Lua engine', () => {
  bench(`${BATCH} x release-if-mine on a key holding another value`, () => {
    for (let i = 0; i < BATCH; i++) engine.run(release);
  });
  bench(`${BATCH} x return 1`, () => {
    for (let i = 0; i < BATCH; i++) engine.run(returnOne);
  });
});
