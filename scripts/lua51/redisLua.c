/* Glue for Redis 7.0.15's Lua 5.1 as a wasm module (src/redis/lua/wasm/lua51Binding.ts binds it) with a count hook and a capped allocator.
 * EVAL-like calls: JS stages KEYS/ARGV bytes in `stage`, calls rl_eval(sha); redis.call/pcall
 * call the imported host_call, which writes a RESP2 reply into `hostbuf`. The script's result
 * comes back as RESP2 bytes in `out`. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <emscripten.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

int luaopen_cjson(lua_State *L);
int luaopen_struct(lua_State *L);
int luaopen_cmsgpack(lua_State *L);
int luaopen_bit(lua_State *L);

extern int host_call(int argc, const char **argv, const int *lens); /* JS: returns reply length in hostbuf */

static lua_State *L;
static size_t mem_used, mem_limit = 64u << 20;
static long long budget = 20000000, used;
static int killed;
#define HOOK_EVERY 1000

static char stage[1 << 16]; static int stage_lens[512];
static char hostbuf[1 << 16];
static char *out; static size_t out_len, out_cap;

EMSCRIPTEN_KEEPALIVE char *rl_stage(void) { return stage; }
EMSCRIPTEN_KEEPALIVE int *rl_stage_lens(void) { return stage_lens; }
EMSCRIPTEN_KEEPALIVE char *rl_hostbuf(void) { return hostbuf; }
EMSCRIPTEN_KEEPALIVE char *rl_out(void) { return out; }
EMSCRIPTEN_KEEPALIVE int rl_out_len(void) { return (int)out_len; }
EMSCRIPTEN_KEEPALIVE double rl_used(void) { return (double)used; }
EMSCRIPTEN_KEEPALIVE int rl_killed(void) { return killed; }
EMSCRIPTEN_KEEPALIVE double rl_mem(void) { return (double)mem_used; }

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  if (nsize == 0) { free(ptr); mem_used -= osize; return NULL; }
  if (nsize > osize && mem_used - osize + nsize > mem_limit) return NULL;
  void *p = realloc(ptr, nsize);
  if (p) mem_used = mem_used - osize + nsize;
  return p;
}

static void count_hook(lua_State *l, lua_Debug *ar) {
  (void)ar;
  used += HOOK_EVERY;
  if (used >= budget) {
    killed = 1;
    lua_sethook(l, count_hook, LUA_MASKLINE, 0); /* re-fire on every line, as Redis's kill does */
    lua_pushstring(l, "ERR Script killed by user with SCRIPT KILL...");
    lua_error(l);
  }
}

/* C-side work (pattern steps, bytes made by string.rep / 16) charged to the same budget. */
static long long charged_since_hook;
void rl_charge(lua_State *l, long n) {
  used += n;
  if (used >= budget && !killed) { killed = 1; lua_sethook(l, count_hook, LUA_MASKLINE, 0); lua_pushstring(l, "ERR Script killed by user with SCRIPT KILL..."); lua_error(l); }
}

/* ---- RESP2 -> Lua (redisProtocolToLuaType, RESP2 part) ---- */
static const char *resp_to_lua(lua_State *l, const char *p) {
  const char *e = strchr(p, '\r');
  long long n;
  switch (*p) {
  case ':': n = strtoll(p + 1, NULL, 10); lua_pushnumber(l, (lua_Number)n); return e + 2;
  case '+': lua_newtable(l); lua_pushstring(l, "ok"); lua_pushlstring(l, p + 1, e - p - 1); lua_settable(l, -3); return e + 2;
  case '-': lua_newtable(l); lua_pushstring(l, "err"); lua_pushlstring(l, p + 1, e - p - 1); lua_settable(l, -3); return e + 2;
  case '$': n = strtoll(p + 1, NULL, 10);
    if (n < 0) { lua_pushboolean(l, 0); return e + 2; }
    lua_pushlstring(l, e + 2, (size_t)n); return e + 2 + n + 2;
  case '*': n = strtoll(p + 1, NULL, 10);
    if (n < 0) { lua_pushboolean(l, 0); return e + 2; }
    lua_newtable(l); p = e + 2;
    for (long long i = 1; i <= n; i++) { lua_pushnumber(l, (lua_Number)i); p = resp_to_lua(l, p); lua_settable(l, -3); }
    return p;
  }
  lua_pushnil(l); return e + 2;
}

static int call_impl(lua_State *l, int raise) {
  int argc = lua_gettop(l);
  const char *argv[64]; int lens[64]; char nb[64][32];
  if (argc == 0) return luaL_error(l, "Please specify at least one argument for this redis lib call");
  if (argc > 64) return luaL_error(l, "prototype: too many arguments");
  for (int i = 0; i < argc; i++) {
    size_t len;
    if (lua_type(l, i + 1) == LUA_TNUMBER) { /* Redis: %.17g */
      lens[i] = snprintf(nb[i], 32, "%.17g", lua_tonumber(l, i + 1)); argv[i] = nb[i];
    } else if (lua_type(l, i + 1) == LUA_TSTRING) {
      argv[i] = lua_tolstring(l, i + 1, &len); lens[i] = (int)len;
    } else return luaL_error(l, "Lua redis lib command arguments must be strings or integers");
  }
  host_call(argc, argv, lens);
  resp_to_lua(l, hostbuf);
  if (raise && lua_istable(l, -1)) {
    lua_getfield(l, -1, "err");
    if (lua_isstring(l, -1)) { lua_error(l); }
    lua_pop(l, 1);
  }
  return 1;
}
static int redis_call(lua_State *l) { return call_impl(l, 1); }
static int redis_pcall(lua_State *l) { return call_impl(l, 0); }

/* ---- Lua -> RESP2 (luaReplyToRedisReply, RESP2 part) ---- */
static void put(const char *s, size_t n) {
  if (out_len + n > out_cap) { while (out_len + n > out_cap) out_cap = out_cap ? out_cap * 2 : 4096; out = realloc(out, out_cap); }
  memcpy(out + out_len, s, n); out_len += n;
}
static void putf(const char *fmt, long long v) { char b[48]; int n = snprintf(b, 48, fmt, v); put(b, n); }
static void lua_to_resp(lua_State *l, int depth) {
  size_t len; const char *s;
  switch (lua_type(l, -1)) {
  case LUA_TSTRING: s = lua_tolstring(l, -1, &len); putf("$%lld\r\n", (long long)len); put(s, len); put("\r\n", 2); break;
  case LUA_TBOOLEAN: if (lua_toboolean(l, -1)) put(":1\r\n", 4); else put("$-1\r\n", 5); break;
  case LUA_TNUMBER: putf(":%lld\r\n", (long long)lua_tonumber(l, -1)); break;
  case LUA_TTABLE:
    lua_getfield(l, -1, "err");
    if (lua_isstring(l, -1)) { s = lua_tolstring(l, -1, &len); put("-", 1); put(s, len); put("\r\n", 2); lua_pop(l, 1); break; }
    lua_pop(l, 1);
    lua_getfield(l, -1, "ok");
    if (lua_isstring(l, -1)) { s = lua_tolstring(l, -1, &len); put("+", 1); put(s, len); put("\r\n", 2); lua_pop(l, 1); break; }
    lua_pop(l, 1);
    { int n = 0; for (;;) { lua_rawgeti(l, -1, n + 1); if (lua_isnil(l, -1)) { lua_pop(l, 1); break; } lua_pop(l, 1); n++; }
      putf("*%lld\r\n", n);
      for (int i = 1; i <= n; i++) { lua_rawgeti(l, -1, i); lua_to_resp(l, depth + 1); lua_pop(l, 1); } }
    break;
  default: put("$-1\r\n", 5);
  }
}

static void set_array(const char *name, int from, int n, const char **ptr) {
  lua_newtable(L);
  for (int i = 0; i < n; i++) { lua_pushlstring(L, *ptr, stage_lens[from + i]); *ptr += stage_lens[from + i]; lua_rawseti(L, -2, i + 1); }
  lua_setglobal(L, name);
}

static void load_lib(const char *name, lua_CFunction f) { lua_pushcfunction(L, f); lua_pushstring(L, name); lua_call(L, 1, 0); }

EMSCRIPTEN_KEEPALIVE int rl_open(double memLimit, double budgetInstr) {
  mem_limit = (size_t)memLimit; budget = (long long)budgetInstr;
  if (L) lua_close(L);
  mem_used = 0;
  L = lua_newstate(capped_alloc, NULL);
  if (!L) return -1;
  load_lib("", luaopen_base); load_lib(LUA_TABLIBNAME, luaopen_table); load_lib(LUA_STRLIBNAME, luaopen_string);
  load_lib(LUA_MATHLIBNAME, luaopen_math); load_lib(LUA_DBLIBNAME, luaopen_debug);
  load_lib("cjson", luaopen_cjson); load_lib("struct", luaopen_struct); load_lib("cmsgpack", luaopen_cmsgpack); load_lib("bit", luaopen_bit);
  lua_newtable(L);
  lua_pushcfunction(L, redis_call); lua_setfield(L, -2, "call");
  lua_pushcfunction(L, redis_pcall); lua_setfield(L, -2, "pcall");
  lua_setglobal(L, "redis");
  return 0;
}

/* Compiles `body` as function f_<sha>, as Redis's luaCreateFunction does. 0, or 1 with the message in out. */
EMSCRIPTEN_KEEPALIVE int rl_load(const char *sha, const char *body, int len) {
  char fname[43]; fname[0] = 'f'; fname[1] = '_'; memcpy(fname + 2, sha, 40); fname[42] = 0;
  out_len = 0;
  if (luaL_loadbuffer(L, body, len, "@user_script")) {
    size_t n; const char *m = lua_tolstring(L, -1, &n); put(m, n); lua_pop(L, 1); return 1;
  }
  lua_setglobal(L, fname);
  return 0;
}

/* Runs f_<sha> with KEYS (nkeys) and ARGV (nargs) staged; the reply is RESP2 in out. */
EMSCRIPTEN_KEEPALIVE int rl_eval(const char *sha, int nkeys, int nargs) {
  char fname[43]; fname[0] = 'f'; fname[1] = '_'; memcpy(fname + 2, sha, 40); fname[42] = 0;
  const char *p = stage;
  set_array("KEYS", 0, nkeys, &p); set_array("ARGV", nkeys, nargs, &p);
  out_len = 0; used = 0; killed = 0;
  lua_getglobal(L, fname);
  lua_sethook(L, count_hook, LUA_MASKCOUNT, HOOK_EVERY);
  int rc = lua_pcall(L, 0, 1, 0);
  lua_sethook(L, NULL, 0, 0);
  if (rc) {
    size_t n; const char *m = lua_tolstring(L, -1, &n);
    put("-", 1); if (m) put(m, n); put("\r\n", 2);
    lua_pop(L, 1); lua_gc(L, LUA_GCCOLLECT, 0); /* 5.1 has no emergency GC: free a bomb's garbage now */
    return rc;
  } else lua_to_resp(L, 0);
  lua_pop(L, 1);
  return rc;
}
