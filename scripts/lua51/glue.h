/* What the glue's three files share (redisLua.c: the VM, its sandbox and limits; redisApi.c:
 * the redis table and Redis's error handling; resp.c: RESP2 both ways). */
#ifndef RL_GLUE_H
#define RL_GLUE_H
#include <stddef.h>
#include "lua.h"

/* Grows a buffer of *cap bytes to hold need (doubling). */
void *rl_grow(void *p, size_t *cap, size_t need);

/* resp.c: what goes back to JS (a RESP2 reply, a compile message, an error's fields). */
void rl_out_reset(void);
void put(const char *s, size_t n);
void puts_(const char *s);
void put_line(const char *s, size_t n);
const char *resp_to_lua(lua_State *l, const char *p, long long *elements);
int lua_to_resp(lua_State *l, int depth);

/* redisApi.c */
void push_error_table(lua_State *l, const char *text, size_t n);
int raise_error(lua_State *l, const char *text);
void rl_open_redis_api(lua_State *L);

/* redisLua.c: C-side work charged to the budget (also called by budget.patch's lines). */
void rl_charge(lua_State *l, long n);
void rl_account(lua_State *l, long n);

#endif
