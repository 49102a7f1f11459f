/** Limits that keep a script from freezing or exhausting the page. */
export interface LuaLimits {
  /**
   * Lua VM instructions a script may run before it is cut, as if SCRIPT KILL had been sent.
   * Default 20 million: a few hundred milliseconds of WebAssembly, while real lock scripts
   * need a few hundred instructions.
   */
  instructionBudget: number;
  /** Bytes the Lua heap may grow by. Default 64 MiB. */
  memoryLimitBytes: number;
}

export const defaultLuaLimits: LuaLimits = { instructionBudget: 20_000_000, memoryLimitBytes: 64 * 1024 * 1024 };
