/* RESP2 both ways, as script_lua.c converts (redisProtocolToLuaType, luaReplyToRedisReply for a
 * RESP2 client), and the `out` buffer JS reads after each call. Part of the glue, see redisLua.c. */
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

static char *out; static size_t out_len, out_cap;
EMSCRIPTEN_KEEPALIVE char *rl_out(void) { return out; }
EMSCRIPTEN_KEEPALIVE int rl_out_len(void) { return (int)out_len; }
void rl_out_reset(void) { out_len = 0; }

void put(const char *s, size_t n) {
  out = rl_grow(out, &out_cap, out_len + n);
  memcpy(out + out_len, s, n); out_len += n;
}
void puts_(const char *s) { put(s, strlen(s)); }
/* Error and status texts cannot hold CR or LF (Redis maps them to spaces). */
void put_line(const char *s, size_t n) {
  out = rl_grow(out, &out_cap, out_len + n);
  for (size_t i = 0; i < n; i++) out[out_len + i] = (s[i] == '\r' || s[i] == '\n') ? ' ' : s[i];
  out_len += n;
}
static void putll(char type, long long v) { char b[48]; int n = snprintf(b, 48, "%c%lld\r\n", type, v); put(b, n); }
static void put_bulk(const char *s, size_t n) { putll('$', (long long)n); put(s, n); put("\r\n", 2); }

/* ---- RESP2 -> Lua (redisProtocolToLuaType) ---- */
/* Pushes the reply at p; counts its values in *elements (the budget charges big replies). */
const char *resp_to_lua(lua_State *l, const char *p, long long *elements) {
  const char *e = strchr(p, '\r');
  long long n = strtoll(p + 1, NULL, 10);
  lua_checkstack(l, 4);
  (*elements)++;
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
    for (long long i = 1; i <= n; i++) { lua_pushnumber(l, (lua_Number)i); p = resp_to_lua(l, p, elements); lua_settable(l, -3); }
    return p;
  }
  lua_pushnil(l); return e + 2;
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
int lua_to_resp(lua_State *l, int depth) {
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
