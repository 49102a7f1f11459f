// The URL of redisLua51.wasm as Vite bundles it (under the site's base path). Import this only
// from browser code (Vite resolves `?url`; Node and tsx cannot) and hand it to loadLuaEngine({ wasmUrl }).
import wasmUrl from './wasm/redisLua51.wasm?url';

/** URL of the bundled Lua WebAssembly binary, for loadLuaEngine({ wasmUrl }). */
export const luaWasmUrl: string = wasmUrl;
