// The URL of wasmoon's glue.wasm as Vite bundles it. Import this only from browser code
// (Vite resolves `?url`; Node and tsx cannot) and hand it to loadLuaEngine({ wasmUrl }).
import wasmUrl from 'wasmoon/dist/glue.wasm?url';

/** URL of the bundled Lua WebAssembly binary, for loadLuaEngine({ wasmUrl }). */
export const luaWasmUrl: string = wasmUrl;
