/* Glue for Redis 7.0.15's Lua 5.1 as a wasm module (src/redis/lua/wasm/lua51Binding.ts binds it).
 *
 * With redisApi.c and resp.c it does what Redis's script_lua.c and eval.c do around the VM
 * (facts read from Redis 7.0.15; this is our own code): the libraries and the global allow-list, the `redis` table, rand48 as
 * math.random, the error handler that adds the script's line, `pcall` turning error tables into
 * strings, the read-only globals, scripts kept as f_<sha> in the registry, RESP2 both ways.
 * And what the simulator adds (src/redis/lua/README.md, "Simulator-only behaviour"): the
 * instruction budget as a count hook plus C-side work charged to it (rl_charge, the budget
 * patch), the memory cap, cjson settings and the collector reset before every script.
 *
 * JS stages KEYS/ARGV bytes in `stage` and calls rl_eval(sha); redis.call/pcall call the
 * imported host_call, which answers RESP2 into `hostbuf`; the reply comes back as RESP2 in `out`. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdint.h>
#include <math.h>
#include <emscripten.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "lstate.h"
#include "glue.h"

int luaopen_cjson(lua_State *L);
int luaopen_struct(lua_State *L);
int luaopen_cmsgpack(lua_State *L);
int luaopen_bit(lua_State *L);

static lua_State *L;

/* ---- KEYS/ARGV staged by JS ---- */
static char *stage; static size_t stage_cap; static int *stage_lens; static size_t lens_cap;

void *rl_grow(void *p, size_t *cap, size_t need) {
  if (need <= *cap) return p;
  size_t c = *cap ? *cap : 4096;
  while (c < need) c *= 2;
  *cap = c;
  return realloc(p, c);
}
EMSCRIPTEN_KEEPALIVE char *rl_reserve_stage(int bytes, int strings) {
  stage = rl_grow(stage, &stage_cap, (size_t)bytes + 1);
  stage_lens = rl_grow(stage_lens, &lens_cap, ((size_t)strings + 1) * sizeof(int));
  return stage;
}
EMSCRIPTEN_KEEPALIVE int *rl_stage_lens(void) { return stage_lens; }

/* ---- memory cap: applies while a script runs (the host's own pushes must never fail) ---- */
static size_t mem_used, mem_limit = 64u << 20;
static int capped, refused_line;

/* The script line running when the cap refused: Lua gives memory errors no position. */
static int script_line(void) {
  lua_Debug ar;
  for (int level = 0; lua_getstack(L, level, &ar); level++) {
    if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && strcmp(ar.source, "@user_script") == 0) return ar.currentline;
  }
  return 0;
}

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  if (nsize == 0) { free(ptr); mem_used -= osize; return NULL; }
  if (capped && nsize > osize && mem_used - osize + nsize > mem_limit) {
    if (refused_line < 0) { capped = 0; refused_line = script_line(); capped = 1; }
    return NULL;
  }
  void *p = realloc(ptr, nsize);
  if (p) mem_used = mem_used - osize + nsize;
  return p;
}

/* ---- the instruction budget ---- */
#define HOOK_EVERY 1000
static long long budget = 20000000, vm_steps, charged;
static int killed, running, armed;


static void count_hook(lua_State *l, lua_Debug *ar) {
  (void)ar;
  if (ar->event == LUA_HOOKCOUNT && !killed && !armed) vm_steps += HOOK_EVERY;
  if (killed || vm_steps + charged >= budget) {
    killed = 1;
    /* Fire on every line from now on, so pcall cannot swallow the kill (as Redis does). */
    lua_sethook(l, count_hook, LUA_MASKLINE, 0);
    raise_error(l, "Script killed by user with SCRIPT KILL...");
  }
}

/* C-side work inside a library function (pattern steps, searches, element loops): past the
 * budget the script is killed here, since the C loop would not come back to Lua code soon. */
void rl_charge(lua_State *l, long n) {
  if (!running) return;
  charged += n;
  if (charged + vm_steps >= budget && !killed) count_hook(l, &(lua_Debug){ .event = LUA_HOOKLINE });
}
/* C-side work that ends by itself (a long string made): past the budget the next instruction kills. */
void rl_account(lua_State *l, long n) {
  if (!running) return;
  charged += n;
  if (charged + vm_steps >= budget && !killed) { armed = 1; lua_sethook(l, count_hook, LUA_MASKCOUNT, 1); }
}

EMSCRIPTEN_KEEPALIVE double rl_vm_steps(void) { return (double)vm_steps; }
EMSCRIPTEN_KEEPALIVE double rl_used(void) { return (double)(vm_steps + charged); }
EMSCRIPTEN_KEEPALIVE int rl_killed(void) { return killed; }
EMSCRIPTEN_KEEPALIVE double rl_mem(void) { return (double)mem_used; }
EMSCRIPTEN_KEEPALIVE int rl_refused_line(void) { return refused_line; }

/* ---- the sandbox ---- */
static const char *const allowed_globals[] = {
  "string", "cjson", "bit", "cmsgpack", "math", "table", "struct", "redis", "__redis__err__handler",
  "xpcall", "tostring", "setmetatable", "next", "assert", "tonumber", "rawequal", "collectgarbage",
  "getmetatable", "rawset", "pcall", "coroutine", "type", "_G", "select", "unpack", "gcinfo", "pairs",
  "rawget", "loadstring", "ipairs", "_VERSION", "load", "error", NULL,
};
/* Globals outside the allow-list (print, dofile, getfenv ...) are dropped as the libraries set them. */
static int allow_list_newindex(lua_State *l) {
  const char *name = lua_tostring(l, 2);
  for (const char *const *a = allowed_globals; name && *a; a++) {
    if (strcmp(*a, name) == 0) { lua_rawset(l, 1); return 0; }
  }
  return 0;
}
static int nonexistent_global(lua_State *l) {
  return luaL_error(l, "Script attempted to access nonexistent global variable '%s'", lua_tostring(l, 2));
}
static void protect_recursively(lua_State *l) {
  if (lua_isreadonlytable(l, -1)) return;
  lua_enablereadonlytable(l, -1, 1);
  lua_checkstack(l, 2);
  lua_pushnil(l);
  while (lua_next(l, -2)) {
    if (lua_istable(l, -1)) protect_recursively(l);
    lua_pop(l, 1);
  }
  if (lua_getmetatable(l, -1)) { protect_recursively(l); lua_pop(l, 1); }
}

/* cjson's settings last for one script: simulations share a VM and must not depend on the run
 * before. The budget patch makes lua_cjson.c's option helpers note a change here. */
int rl_cjson_dirty;
static void cjson_reset(void) {
  static const char *const defaults[] = {
    "return function(c) c.encode_sparse_array(false, 2, 10) c.encode_max_depth(1000) c.decode_max_depth(1000) "
    "c.encode_number_precision(14) c.encode_keep_buffer(true) c.encode_invalid_numbers(false) c.decode_invalid_numbers(true) end",
  };
  if (!rl_cjson_dirty) return;
  if (luaL_loadstring(L, defaults[0]) == 0 && lua_pcall(L, 0, 1, 0) == 0) {
    lua_getglobal(L, "cjson");
    lua_pcall(L, 1, 0, 0);
  }
  lua_settop(L, 0);
  rl_cjson_dirty = 0;
}

static void load_lib(const char *name, lua_CFunction f) { lua_pushcfunction(L, f); lua_pushstring(L, name); lua_call(L, 1, 0); }

EMSCRIPTEN_KEEPALIVE int rl_open(double memLimit, double budgetInstr) {
  mem_limit = (size_t)memLimit; budget = (long long)budgetInstr;
  if (L) lua_close(L);
  mem_used = 0; capped = 0; running = 0; rl_cjson_dirty = 0;
  L = lua_newstate(capped_alloc, NULL);
  if (!L) return -1;
  lua_pushvalue(L, LUA_GLOBALSINDEX);
  lua_newtable(L); lua_pushcfunction(L, allow_list_newindex); lua_setfield(L, -2, "__newindex"); lua_setmetatable(L, -2);
  lua_pop(L, 1);
  load_lib("", luaopen_base); load_lib(LUA_TABLIBNAME, luaopen_table); load_lib(LUA_STRLIBNAME, luaopen_string);
  load_lib(LUA_MATHLIBNAME, luaopen_math);
  load_lib("cjson", luaopen_cjson); load_lib("struct", luaopen_struct); load_lib("cmsgpack", luaopen_cmsgpack); load_lib("bit", luaopen_bit);
  rl_open_redis_api(L);

  /* Lock the globals, everything reachable from them, and the strings' metatable. */
  lua_pushvalue(L, LUA_GLOBALSINDEX);
  lua_newtable(L); lua_pushcfunction(L, nonexistent_global); lua_setfield(L, -2, "__index"); lua_setmetatable(L, -2);
  protect_recursively(L);
  lua_pop(L, 1);
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1)) { protect_recursively(L); lua_pop(L, 1); }
  lua_settop(L, 0);
  return 0;
}

static void fname_of(char *fname, const char *sha) { fname[0] = 'f'; fname[1] = '_'; memcpy(fname + 2, sha, 40); fname[42] = 0; }

/* Compiles `body` as f_<sha> (kept in the registry, as Redis 7.0 keeps it), or, with a null sha,
 * only checks that it compiles. 0, or 1 with Lua's message in out. */
EMSCRIPTEN_KEEPALIVE int rl_load(const char *sha, const char *body, int len) {
  rl_out_reset();
  if (luaL_loadbuffer(L, body, len, "@user_script")) {
    size_t n; const char *m = lua_tolstring(L, -1, &n); if (m) put(m, n); else puts_("not enough memory");
    lua_settop(L, 0); return 1;
  }
  if (sha) { char fname[43]; fname_of(fname, sha); lua_setfield(L, LUA_REGISTRYINDEX, fname); }
  lua_settop(L, 0);
  return 0;
}
EMSCRIPTEN_KEEPALIVE void rl_unload(const char *sha) {
  char fname[43]; fname_of(fname, sha);
  lua_pushnil(L); lua_setfield(L, LUA_REGISTRYINDEX, fname);
}

static void set_array(const char *name, int from, int n, const char **ptr) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) { lua_pushlstring(L, *ptr, stage_lens[from + i]); *ptr += stage_lens[from + i]; lua_rawseti(L, -2, i + 1); }
  lua_enablereadonlytable(L, LUA_GLOBALSINDEX, 0);
  lua_setglobal(L, name);
  lua_enablereadonlytable(L, LUA_GLOBALSINDEX, 1);
}

/* After a script the heap is collected before the next one when it holds more than this. */
#define COLLECT_ABOVE_BYTES (8u << 20)

/* Runs f_<sha> with KEYS (nkeys) and ARGV (nargs) staged. Returns 0 with the reply as RESP2 in
 * out, or Lua's status with the error table's fields (err, source, line) or message in out. */
EMSCRIPTEN_KEEPALIVE int rl_eval(const char *sha, int nkeys, int nargs) {
  char fname[43]; fname_of(fname, sha);
  const char *p = stage;
  lua_settop(L, 0);
  /* A script that stopped the collector does not stop it for the next one. */
  if (G(L)->GCthreshold == MAX_LUMEM) lua_gc(L, LUA_GCRESTART, 0);
  cjson_reset();
  set_array("KEYS", 0, nkeys, &p); set_array("ARGV", nkeys, nargs, &p);
  if (mem_used > COLLECT_ABOVE_BYTES) lua_gc(L, LUA_GCCOLLECT, 0);
  rl_out_reset(); vm_steps = 0; charged = 0; killed = 0; armed = 0; refused_line = -1;
  lua_getglobal(L, "__redis__err__handler");
  lua_getfield(L, LUA_REGISTRYINDEX, fname);
  lua_sethook(L, count_hook, LUA_MASKCOUNT, HOOK_EVERY);
  running = 1; capped = 1;
  int rc = lua_pcall(L, 0, 1, 1);
  running = 0; capped = 0;
  lua_sethook(L, NULL, 0, 0);
  if (rc == 0) { lua_to_resp(L, 0); lua_settop(L, 0); return 0; }
  if (lua_istable(L, -1)) {
    const char *fields[] = { "err", "source", "line" };
    for (int i = 0; i < 3; i++) {
      lua_getfield(L, -1, fields[i]);
      size_t n = 0; const char *s = lua_isstring(L, -1) ? lua_tolstring(L, -1, &n) : NULL;
      if (s) put_line(s, n);
      put("\n", 1);
      lua_pop(L, 1);
    }
  } else {
    size_t n = 0; const char *s = lua_isstring(L, -1) ? lua_tolstring(L, -1, &n) : NULL;
    if (s) put_line(s, n > 100 ? 100 : n); else puts_("execution failure");
  }
  lua_settop(L, 0);
  lua_gc(L, LUA_GCCOLLECT, 0); /* 5.1 has no emergency collection: free what a failed script left */
  return rc;
}

