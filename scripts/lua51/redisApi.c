/* The redis table, Redis's pcall, math.random as rand48 and the error handler, as script_lua.c
 * and eval.c of Redis 7.0.15 set them up (our code; texts checked against redis-server 7.0.15).
 * Part of the glue, see redisLua.c. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdint.h>
#include <math.h>
#include <emscripten.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "glue.h"

/* JS: answers one redis.call into hostbuf (rl_reserve_host), returns its length. */
extern int host_call(int argc, const char **argv, const int *lens);
/* JS: writes the 40 hex digits of SHA-1(s) to out. */
extern void host_sha1hex(const char *s, int len, char *out);

static char *hostbuf; static size_t hostbuf_cap;
EMSCRIPTEN_KEEPALIVE char *rl_reserve_host(int bytes) { hostbuf = rl_grow(hostbuf, &hostbuf_cap, (size_t)bytes + 1); return hostbuf; }

/* luaPushErrorBuff: "-CODE msg" keeps CODE, any other text gets ERR; trailing CR/LF cut. */
void push_error_table(lua_State *l, const char *text, size_t n) {
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
int raise_error(lua_State *l, const char *text) { push_error_table(l, text, strlen(text)); return lua_error(l); }

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
  long long elements = 0;
  resp_to_lua(l, hostbuf, &elements);
  long long weight = len + ELEMENT_BYTES * elements;
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

static void set_fn(lua_State *L, const char *name, lua_CFunction f) { lua_pushcfunction(L, f); lua_setfield(L, -2, name); }
static void set_num(lua_State *L, const char *name, double v) { lua_pushnumber(L, v); lua_setfield(L, -2, name); }

/* Redis's pcall, the redis table, math.random/randomseed and the error handler, on a fresh VM. */
void rl_open_redis_api(lua_State *L) {
  lua_pushcfunction(L, redis_lua_pcall); lua_setglobal(L, "pcall");

  lua_newtable(L);
  set_fn(L, "call", redis_call); set_fn(L, "pcall", redis_pcall_cmd);
  set_fn(L, "log", redis_log);
  set_num(L, "LOG_DEBUG", 0); set_num(L, "LOG_VERBOSE", 1); set_num(L, "LOG_NOTICE", 2); set_num(L, "LOG_WARNING", 3);
  set_num(L, "REDIS_VERSION_NUM", 0x07000f); lua_pushstring(L, "7.0.15"); lua_setfield(L, -2, "REDIS_VERSION");
  set_fn(L, "setresp", redis_setresp); set_fn(L, "sha1hex", redis_sha1hex);
  set_fn(L, "error_reply", redis_error_reply); set_fn(L, "status_reply", redis_status_reply);
  set_fn(L, "set_repl", redis_set_repl);
  set_num(L, "REPL_NONE", 0); set_num(L, "REPL_AOF", 1); set_num(L, "REPL_SLAVE", 2); set_num(L, "REPL_REPLICA", 2); set_num(L, "REPL_ALL", 3);
  set_fn(L, "breakpoint", redis_breakpoint); set_fn(L, "debug", redis_debug); set_fn(L, "replicate_commands", redis_replicate_commands);
  lua_setglobal(L, "redis");

  lua_getglobal(L, "math");
  set_fn(L, "random", math_random); set_fn(L, "randomseed", math_randomseed);
  lua_pop(L, 1);

  lua_pushcfunction(L, err_handler); lua_setglobal(L, "__redis__err__handler");
}
