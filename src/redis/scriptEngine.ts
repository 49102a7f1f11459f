import type { Reply } from './reply';

/**
 * The seam between the command table (EVAL, EVALSHA, SCRIPT ...) and a Lua VM.
 *
 * The command table validates arguments, computes SHA1s, keeps the script cache and answers
 * NOSCRIPT; the engine only runs a body. Loading a VM is asynchronous (WebAssembly), running
 * one is synchronous, so a World loads its engine before the run starts and the kernel stays
 * synchronous.
 */
export interface ScriptEngine {
  run(request: ScriptRequest): Reply;
  /**
   * An engine for one server process: it shares the loaded VM but keeps that server's own
   * script state (Redis 7.0 never reseeds math.random, so each process has its own sequence).
   * A simulated node calls this whenever it starts, so two nodes, or two runs, never share it.
   */
  forServer?(): ScriptEngine;
}

export interface ScriptRequest {
  /** The script's source text. */
  body: string;
  /** Its lower-case hex SHA1, for error suffixes like `script: <sha1>, on @user_script:1.` */
  sha: string;
  keys: string[];
  args: string[];
  /**
   * Runs one command inside the script, with script rules applied by the server (commands
   * not allowed from scripts, frozen time, NOREPLICAS ...). Returns the reply as the server
   * would send it; the engine decides whether it raises (redis.call) or returns (redis.pcall).
   */
  call(argv: string[]): Reply;
}
