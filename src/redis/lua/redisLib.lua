-- The `redis` table scripts see: call/pcall, error_reply/status_reply, sha1hex,
-- log and the constants of Redis 7.0.15. call/pcall are host functions (luaScriptEngine.ts);
-- this chunk holds the rest, with Redis's error-table format (luaPushErrorBuff).
--
-- Texts were checked against redis-server 7.0.15 (see README.md in this folder).

local env, native = ...
local type, select, error = type, select, error
local ssub, sfind, sgsub, sbyte = string.sub, string.find, string.gsub, string.byte
local tostring51 = env.tostring

-- luaPushErrorBuff: "-CODE msg" keeps CODE, anything else gets the generic ERR code.
local function error_table(text)
  local code, msg
  if ssub(text, 1, 1) == '-' then
    local space = sfind(text, ' ', 1, true)
    if space then
      code, msg = ssub(text, 2, space - 1), ssub(text, space + 1)
    else
      code, msg = 'ERR', ssub(text, 2)
    end
  else
    code, msg = 'ERR', text
  end
  -- Trailing newlines are cut by scanning back, not with '[\r\n]+$': unanchored, that
  -- pattern backtracks quadratically inside one C call on a long run of newlines.
  msg = sgsub(msg, '^[\r\n]+', '')
  local last = #msg
  while last > 0 and (sbyte(msg, last) == 10 or sbyte(msg, last) == 13) do last = last - 1 end
  msg = ssub(msg, 1, last)
  return {err = code .. ' ' .. msg}
end
env.error_table = error_table

local redis = {}
-- C functions (from the host), as in Redis: a Lua wrapper called in tail position
-- (return redis.call(...)) would replace the script's frame and lose the error's line.
redis.call = native.call
redis.pcall = native.pcall

function redis.error_reply(...)
  local text = ...
  if select('#', ...) ~= 1 or type(text) ~= 'string' then
    return error_table('wrong number or type of arguments')
  end
  if ssub(text, 1, 1) ~= '-' then text = '-' .. text end
  return error_table(text)
end

function redis.status_reply(...)
  local text = ...
  if select('#', ...) ~= 1 or type(text) ~= 'string' then
    return error_table('wrong number or type of arguments')
  end
  return {ok = text}
end

function redis.sha1hex(...)
  if select('#', ...) ~= 1 then error(error_table('wrong number of arguments'), 0) end
  local s = ...
  if type(s) ~= 'string' then s = tostring51(s) end
  return native.sha1hex(s)
end

-- The simulator keeps no server log; redis.log checks its arguments like Redis and returns.
function redis.log(...)
  local n = select('#', ...)
  if n < 2 then error(error_table('redis.log() requires two arguments or more.'), 0) end
  local level = ...
  if type(level) ~= 'number' then error(error_table('First argument must be a number'), 0) end
  if level < 0 or level > 3 then error(error_table('Invalid debug level.'), 0) end
end

function redis.setresp(...)
  local v = ...
  if select('#', ...) ~= 1 then error(error_table('redis.setresp() requires one argument.'), 0) end
  if v ~= 2 and v ~= 3 then error(error_table('RESP version must be 2 or 3.'), 0) end
end

function redis.set_repl(...)
  local v = ...
  if select('#', ...) ~= 1 then error(error_table('redis.set_repl() requires one argument.'), 0) end
  if type(v) ~= 'number' or v < 0 or v > 3 then
    error(error_table('Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.'), 0)
  end
end
function redis.replicate_commands() return true end
function redis.breakpoint() return false end
function redis.debug() end

redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING = 0, 1, 2, 3
redis.REPL_NONE, redis.REPL_AOF, redis.REPL_SLAVE, redis.REPL_REPLICA, redis.REPL_ALL = 0, 1, 2, 2, 3
redis.REDIS_VERSION, redis.REDIS_VERSION_NUM = '7.0.15', 458767

env.install('redis', redis)
