// The Lua side of the shim, kept in .lua files and imported as text. Vite and Vitest read
// `?raw` natively; the tsx-run CLIs register a hook for it (src/cli/luaTextImports.ts) and the
// esbuild bench bundle needs `--loader:.lua=text`.
import bitLib from './bitLib.lua?raw';
import cjsonLib from './cjsonLib.lua?raw';
import cmsgpackLib from './cmsgpackLib.lua?raw';
import patternLib from './patternLib.lua?raw';
import redisLib from './redisLib.lua?raw';
import sandbox from './sandbox.lua?raw';

/** The chunk that builds the sandbox; it runs first and returns the environment table. */
export const sandboxSource: string = sandbox;

/** The library chunks, run in this order after the sandbox; their names mark shim stack frames. */
export const SHIM_CHUNKS: [name: string, source: string][] = [
  ['=pattern', patternLib],
  ['=redis', redisLib],
  ['=bit', bitLib],
  ['=cjson', cjsonLib],
  ['=cmsgpack', cmsgpackLib],
];
