/* Glue for Redis 7.0.15's Lua 5.1 as a wasm module (src/redis/lua/wasm/lua51Binding.ts binds it).
 *
 * It does what Redis's script_lua.c and eval.c do around the VM (facts read from Redis 7.0.15;
 * this is our own code): the libraries and the global allow-list, the `redis` table, rand48 as
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

int luaopen_cjson(lua_State *L);
int luaopen_struct(lua_State *L);
int luaopen_cmsgpack(lua_State *L);
int luaopen_bit(lua_State *L);

/* JS: answers one redis.call into hostbuf (rl_reserve_host), returns its length. */
extern int host_call(int argc, const char **argv, const int *lens);
/* JS: writes the 40 hex digits of SHA-1(s) to out. */
extern void host_sha1hex(const char *s, int len, char *out);

static lua_State *L;

/* ---- buffers shared with JS ---- */
static char *stage; static size_t stage_cap; static int *stage_lens; static size_t lens_cap;
static char *hostbuf; static size_t hostbuf_cap;
static char *out; static size_t out_len, out_cap;

static void *grow(void *p, size_t *cap, size_t need) {
  if (need <= *cap) return p;
  size_t c = *cap ? *cap : 4096;
  while (c < need) c *= 2;
  *cap = c;
  return realloc(p, c);
}
EMSCRIPTEN_KEEPALIVE char *rl_reserve_stage(int bytes, int strings) {
  stage = grow(stage, &stage_cap, (size_t)bytes + 1);
  stage_lens = grow(stage_lens, &lens_cap, ((size_t)strings + 1) * sizeof(int));
  return stage;
}
EMSCRIPTEN_KEEPALIVE int *rl_stage_lens(void) { return stage_lens; }
EMSCRIPTEN_KEEPALIVE char *rl_reserve_host(int bytes) { hostbuf = grow(hostbuf, &hostbuf_cap, (size_t)bytes + 1); return hostbuf; }
EMSCRIPTEN_KEEPALIVE char *rl_out(void) { return out; }
EMSCRIPTEN_KEEPALIVE int rl_out_len(void) { return (int)out_len; }

static void put(const char *s, size_t n) {
  out = grow(out, &out_cap, out_len + n);
  memcpy(out + out_len, s, n); out_len += n;
}
static void puts_(const char *s) { put(s, strlen(s)); }
/* Error and status texts cannot hold CR or LF (Redis maps them to spaces). */
static void put_line(const char *s, size_t n) {
  out = grow(out, &out_cap, out_len + n);
  for (size_t i = 0; i < n; i++) out[out_len + i] = (s[i] == '\r' || s[i] == '\n') ? ' ' : s[i];
  out_len += n;
}
static void putll(char type, long long v) { char b[48]; int n = snprintf(b, 48, "%c%lld\r\n", type, v); put(b, n); }
static void put_bulk(const char *s, size_t n) { putll('$', (long long)n); put(s, n); put("\r\n", 2); }

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

/* luaPushErrorBuff: "-CODE msg" keeps CODE, any other text gets ERR; trailing CR/LF cut. */
static void push_error_table(lua_State *l, const char *text, size_t n) {
  luaL_Buffer b;
  const char *msg = text, *end = text + n;
  luaL_buffinit(l, &b);
  if (text[0] == '-') {
    const char *space = memchr(text, ' ', n);
    if (space) { luaL_addlstring(&b, text + 1, space - text - 1); msg = space + 1; }
    else { luaL_addstring(&b, "ERR"); msg = text + 1; }
  } else luaL_addstring(&b, "ERR");
  while (msg < end && (*msg == '\r' || *msg == '\n')) msg++;
  while (end > msg && (end[-1] == '\r' || end[-1] == '\n')) end--;
  luaL_addchar(&b, ' ');
  luaL_addlstring(&b, msg, end - msg);
  lua_newtable(l);
  lua_pushstring(l, "err");
  luaL_pushresult(&b);
  lua_settable(l, -3);
}
static int raise_error(lua_State *l, const char *text) { push_error_table(l, text, strlen(text)); return lua_error(l); }

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

/* ---- rand48 (Redis's rand.c): never reseeded between scripts; survives a VM rebuild ---- */
static uint64_t rand48 = 0x1234ABCD330EULL;
EMSCRIPTEN_KEEPALIVE double rl_rand_state(void) { return (double)rand48; }
EMSCRIPTEN_KEEPALIVE void rl_set_rand_state(double s) { rand48 = (uint64_t)s; }
static int32_t lrand48_(void) {
  rand48 = (0x5DEECE66DULL * rand48 + 0xB) & 0xFFFFFFFFFFFFULL;
  return (int32_t)(rand48 >> 17);
}
static int math_random(lua_State *l) {
  lua_Number r = (lua_Number)(lrand48_() % INT32_MAX) / (lua_Number)INT32_MAX;
  switch (lua_gettop(l)) {
  case 0: lua_pushnumber(l, r); break;
  case 1: { int u = luaL_checkint(l, 1); luaL_argcheck(l, 1 <= u, 1, "interval is empty"); lua_pushnumber(l, floor(r * u) + 1); break; }
  case 2: { int lo = luaL_checkint(l, 1), u = luaL_checkint(l, 2); luaL_argcheck(l, lo <= u, 2, "interval is empty");
            lua_pushnumber(l, floor(r * (u - lo + 1)) + lo); break; }
  default: return luaL_error(l, "wrong number of arguments");
  }
  return 1;
}
static int math_randomseed(lua_State *l) {
  int32_t seed = luaL_checkint(l, 1);
  rand48 = (((uint64_t)(uint32_t)seed) << 16 | 0x330E) & 0xFFFFFFFFFFFFULL;
  return 0;
}

/* ---- RESP2 -> Lua (redisProtocolToLuaType) ---- */
static long long reply_elements;
static const char *resp_to_lua(lua_State *l, const char *p) {
  const char *e = strchr(p, '\r');
  long long n = strtoll(p + 1, NULL, 10);
  lua_checkstack(l, 4);
  reply_elements++;
  switch (*p) {
  case ':': lua_pushnumber(l, (lua_Number)n); return e + 2;
  case '+': lua_newtable(l); lua_pushstring(l, "ok"); lua_pushlstring(l, p + 1, e - p - 1); lua_settable(l, -3); return e + 2;
  case '-': {
    luaL_Buffer b; luaL_buffinit(l, &b); luaL_addlstring(&b, p, e - p); luaL_pushresult(&b);
    size_t len; const char *s = lua_tolstring(l, -1, &len);
    push_error_table(l, s, len); lua_remove(l, -2);
    lua_pushstring(l, "ignore_error_stats_update"); lua_pushboolean(l, 1); lua_settable(l, -3);
    return e + 2;
  }
  case '$':
    if (n < 0) { lua_pushboolean(l, 0); return e + 2; }
    lua_pushlstring(l, e + 2, (size_t)n); return e + 2 + n + 2;
  case '*':
    if (n < 0) { lua_pushboolean(l, 0); return e + 2; }
    lua_newtable(l); p = e + 2;
    for (long long i = 1; i <= n; i++) { lua_pushnumber(l, (lua_Number)i); p = resp_to_lua(l, p); lua_settable(l, -3); }
    return p;
  }
  lua_pushnil(l); return e + 2;
}

/* ---- redis.call / redis.pcall ---- */
#define REPLY_FREE_BYTES 4096
#define BYTES_PER_INSTRUCTION 16
#define ELEMENT_BYTES 64
static int call_impl(lua_State *l, int raise) {
  int argc = lua_gettop(l);
  if (argc == 0) { push_error_table(l, "Please specify at least one argument for this redis lib call", 60); return raise ? lua_error(l) : 1; }
  const char **argv = (const char **)lua_newuserdata(l, argc * (sizeof(char *) + sizeof(int)));
  int *lens = (int *)(argv + argc);
  for (int i = 1; i <= argc; i++) {
    size_t len;
    if (lua_type(l, i) == LUA_TNUMBER) { /* %.17g: Lua's own format loses precision */
      char nb[64]; int n = snprintf(nb, 64, "%.17g", (double)lua_tonumber(l, i));
      lua_pushlstring(l, nb, n); lua_replace(l, i);
    }
    argv[i - 1] = lua_tolstring(l, i, &len); lens[i - 1] = (int)len;
    if (!argv[i - 1]) { raise_error(l, "Lua redis lib command arguments must be strings or integers"); }
  }
  int len = host_call(argc, argv, lens);
  lua_settop(l, 0);
  reply_elements = 0;
  resp_to_lua(l, hostbuf);
  long long weight = len + ELEMENT_BYTES * reply_elements;
  if (weight > REPLY_FREE_BYTES) rl_account(l, (long)(weight / BYTES_PER_INSTRUCTION));
  if (raise && hostbuf[0] == '-') return lua_error(l);
  return 1;
}
static int redis_call(lua_State *l) { return call_impl(l, 1); }
static int redis_pcall_cmd(lua_State *l) {
  /* Argument errors are returned, not raised, by redis.pcall. */
  int argc = lua_gettop(l);
  for (int i = 1; i <= argc; i++) {
    int t = lua_type(l, i);
    if (t != LUA_TNUMBER && t != LUA_TSTRING) { push_error_table(l, "Lua redis lib command arguments must be strings or integers", 59); return 1; }
  }
  if (argc == 0) { push_error_table(l, "Please specify at least one argument for this redis lib call", 60); return 1; }
  return call_impl(l, 0);
}

/* ---- the rest of the redis table ---- */
static int redis_sha1hex(lua_State *l) {
  if (lua_gettop(l) != 1) return raise_error(l, "wrong number of arguments");
  size_t len = 0; const char *s = lua_tolstring(l, 1, &len);
  char digest[41];
  host_sha1hex(s ? s : "", (int)len, digest);
  lua_pushlstring(l, digest, 40);
  return 1;
}
static int single_field(lua_State *l, const char *field) {
  if (lua_gettop(l) != 1 || lua_type(l, -1) != LUA_TSTRING) { push_error_table(l, "wrong number or type of arguments", 33); return 1; }
  lua_newtable(l); lua_pushstring(l, field); lua_pushvalue(l, -3); lua_settable(l, -3);
  return 1;
}
static int redis_status_reply(lua_State *l) { return single_field(l, "ok"); }
static int redis_error_reply(lua_State *l) {
  if (lua_gettop(l) != 1 || lua_type(l, -1) != LUA_TSTRING) { push_error_table(l, "wrong number or type of arguments", 33); return 1; }
  size_t len; const char *s = lua_tolstring(l, 1, &len);
  if (s[0] == '-') { push_error_table(l, s, len); return 1; }
  lua_pushliteral(l, "-"); lua_pushvalue(l, 1); lua_concat(l, 2);
  s = lua_tolstring(l, -1, &len); push_error_table(l, s, len);
  return 1;
}
/* The simulator keeps no server log: redis.log checks its arguments as Redis does and returns. */
static int redis_log(lua_State *l) {
  int argc = lua_gettop(l);
  if (argc < 2) return raise_error(l, "redis.log() requires two arguments or more.");
  if (!lua_isnumber(l, 1)) return raise_error(l, "First argument must be a number (log level).");
  int level = (int)lua_tonumber(l, 1);
  if (level < 0 || level > 3) return raise_error(l, "Invalid debug level.");
  return 0;
}
/* Replies stay RESP2: the simulator's replies have no RESP3 types. */
static int redis_setresp(lua_State *l) {
  if (lua_gettop(l) != 1) return raise_error(l, "redis.setresp() requires one argument.");
  int resp = (int)lua_tonumber(l, 1);
  if (resp != 2 && resp != 3) return raise_error(l, "RESP version must be 2 or 3.");
  return 0;
}
static int redis_set_repl(lua_State *l) {
  if (lua_gettop(l) != 1) return raise_error(l, "redis.set_repl() requires two arguments.");
  int flags = (int)lua_tonumber(l, -1);
  if ((flags & ~3) != 0) return raise_error(l, "Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
  return 0;
}
static int redis_replicate_commands(lua_State *l) { lua_pushboolean(l, 1); return 1; }
static int redis_breakpoint(lua_State *l) { lua_pushboolean(l, 0); return 1; } /* no debugger attached */
static int redis_debug(lua_State *l) { (void)l; return 0; }

/* Redis's pcall: an error table with an `err` string is handed to the script as that string. */
static int redis_lua_pcall(lua_State *l) {
  int argc = lua_gettop(l);
  lua_pushboolean(l, 1);
  lua_insert(l, 1);
  if (lua_pcall(l, argc - 1, LUA_MULTRET, 0)) {
    lua_remove(l, 1);
    if (lua_istable(l, -1)) {
      lua_getfield(l, -1, "err");
      if (lua_isstring(l, -1)) lua_replace(l, -2); else lua_pop(l, 1);
    }
    lua_pushboolean(l, 0);
    lua_insert(l, 1);
  }
  return lua_gettop(l);
}

/* The error handler (eval.c's __redis__err__handler): a table error keeps its fields, anything
 * else becomes {err='ERR ' .. tostring(e)}; both get the position of the Lua code that raised,
 * the caller's when a C function raised. Written in C so the kill's line hook cannot fire in it. */
static int err_handler(lua_State *l) {
  lua_Debug ar; int have = 0;
  if (lua_getstack(l, 1, &ar)) {
    have = lua_getinfo(l, "nSl", &ar);
    if (have && strcmp(ar.what, "C") == 0) have = lua_getstack(l, 2, &ar) && lua_getinfo(l, "nSl", &ar);
  }
  if (!lua_istable(l, 1)) {
    lua_getglobal(l, "tostring");
    lua_pushvalue(l, 1);
    lua_call(l, 1, 1);
    lua_newtable(l);
    lua_pushliteral(l, "ERR ");
    lua_pushvalue(l, -3);
    lua_concat(l, 2);
    lua_setfield(l, -2, "err");
    lua_replace(l, 1);
    lua_settop(l, 1);
  }
  if (have) {
    lua_pushstring(l, ar.source); lua_setfield(l, 1, "source");
    lua_pushnumber(l, ar.currentline); lua_setfield(l, 1, "line");
  }
  return 1;
}

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
static void set_fn(const char *name, lua_CFunction f) { lua_pushcfunction(L, f); lua_setfield(L, -2, name); }
static void set_num(const char *name, double v) { lua_pushnumber(L, v); lua_setfield(L, -2, name); }

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
  lua_pushcfunction(L, redis_lua_pcall); lua_setglobal(L, "pcall");

  lua_newtable(L);
  set_fn("call", redis_call); set_fn("pcall", redis_pcall_cmd);
  set_fn("log", redis_log);
  set_num("LOG_DEBUG", 0); set_num("LOG_VERBOSE", 1); set_num("LOG_NOTICE", 2); set_num("LOG_WARNING", 3);
  set_num("REDIS_VERSION_NUM", 0x07000f); lua_pushstring(L, "7.0.15"); lua_setfield(L, -2, "REDIS_VERSION");
  set_fn("setresp", redis_setresp); set_fn("sha1hex", redis_sha1hex);
  set_fn("error_reply", redis_error_reply); set_fn("status_reply", redis_status_reply);
  set_fn("set_repl", redis_set_repl);
  set_num("REPL_NONE", 0); set_num("REPL_AOF", 1); set_num("REPL_SLAVE", 2); set_num("REPL_REPLICA", 2); set_num("REPL_ALL", 3);
  set_fn("breakpoint", redis_breakpoint); set_fn("debug", redis_debug); set_fn("replicate_commands", redis_replicate_commands);
  lua_setglobal(L, "redis");

  lua_getglobal(L, "math");
  set_fn("random", math_random); set_fn("randomseed", math_randomseed);
  lua_pop(L, 1);

  lua_pushcfunction(L, err_handler); lua_setglobal(L, "__redis__err__handler");

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
  out_len = 0;
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

/* ---- Lua -> RESP2 (luaReplyToRedisReply, as a RESP2 client gets it) ---- */
/* Redis converts a self-nested table 7,995 levels deep (where 5.1's C stack, 8,000 slots, runs
 * out); this recursion runs on the JavaScript engine's native stack, which a worker keeps
 * small, so the simulator stops at 1,000 levels with Redis's message. */
#define MAX_REPLY_DEPTH 1000
static void put_double(double d) {
  char b[64]; int n;
  if (isinf(d)) n = snprintf(b, 64, "%s", d > 0 ? "inf" : "-inf");
  else n = snprintf(b, 64, "%.17g", d);
  put_bulk(b, n);
}
static int lua_to_resp(lua_State *l, int depth);
/* Entries of a {map=} or {set=} table, flattened as RESP2 shows them; returns how many values. */
static long long put_pairs(lua_State *l, int depth, int values) {
  long long count = 0;
  lua_pushnil(l);
  while (lua_next(l, -2)) {
    if (values) { lua_pushvalue(l, -2); lua_insert(l, -2); lua_to_resp(l, depth + 1); lua_to_resp(l, depth + 1); count += 2; }
    else { lua_pop(l, 1); lua_pushvalue(l, -1); lua_to_resp(l, depth + 1); count++; }
  }
  return count;
}
/* Converts and pops the value on top. Arrays need their length first: written to a scratch buffer. */
static int lua_to_resp(lua_State *l, int depth) {
  size_t len; const char *s;
  if (depth > MAX_REPLY_DEPTH || !lua_checkstack(l, 4)) { puts_("-ERR reached lua stack limit\r\n"); lua_pop(l, 1); return 0; }
  switch (lua_type(l, -1)) {
  case LUA_TSTRING: s = lua_tolstring(l, -1, &len); put_bulk(s, len); break;
  case LUA_TBOOLEAN: if (lua_toboolean(l, -1)) puts_(":1\r\n"); else puts_("$-1\r\n"); break;
  case LUA_TNUMBER: putll(':', (long long)lua_tonumber(l, -1)); break;
  case LUA_TTABLE: {
    lua_pushliteral(l, "err"); lua_rawget(l, -2);
    if (lua_type(l, -1) == LUA_TSTRING) { s = lua_tolstring(l, -1, &len); put("-", 1); put_line(s, len); put("\r\n", 2); lua_pop(l, 2); return 0; }
    lua_pop(l, 1);
    lua_pushliteral(l, "ok"); lua_rawget(l, -2);
    if (lua_type(l, -1) == LUA_TSTRING) { s = lua_tolstring(l, -1, &len); put("+", 1); put_line(s, len); put("\r\n", 2); lua_pop(l, 2); return 0; }
    lua_pop(l, 1);
    lua_pushliteral(l, "double"); lua_rawget(l, -2);
    if (lua_type(l, -1) == LUA_TNUMBER) { put_double(lua_tonumber(l, -1)); lua_pop(l, 2); return 0; }
    lua_pop(l, 1);
    for (int kind = 0; kind < 2; kind++) {
      lua_pushstring(l, kind ? "set" : "map"); lua_rawget(l, -2);
      if (lua_type(l, -1) == LUA_TTABLE) {
        size_t at = out_len; puts_("*0000000000000000000\r\n"); size_t body = out_len;
        long long n = put_pairs(l, depth, !kind);
        char head[32]; int hn = snprintf(head, 32, "*%lld\r\n", n);
        memmove(out + at + hn, out + body, out_len - body); out_len = at + hn + (out_len - body); memcpy(out + at, head, hn);
        lua_pop(l, 2); return 0;
      }
      lua_pop(l, 1);
    }
    long long n = 0;
    for (;;) { lua_rawgeti(l, -1, (int)n + 1); int nil = lua_isnil(l, -1); lua_pop(l, 1); if (nil) break; n++; }
    putll('*', n);
    for (long long i = 1; i <= n; i++) { lua_rawgeti(l, -1, (int)i); lua_to_resp(l, depth + 1); }
    break;
  }
  default: puts_("$-1\r\n");
  }
  lua_pop(l, 1);
  return 0;
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
  out_len = 0; vm_steps = 0; charged = 0; killed = 0; armed = 0; refused_line = -1;
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
