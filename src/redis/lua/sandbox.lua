-- Turns a fresh Lua 5.4 state into Redis 7.0's script environment: the Lua 5.1
-- shapes of base/string/table/math/coroutine, read-only globals with Redis's exact messages,
-- Redis's `pcall` (which turns `{err=...}` tables into strings) and the top-level error handler
-- that adds `source`/`line` for the `script: <sha>, on @user_script:<line>.` suffix.
--
-- It runs once per VM, before any user script, with the real globals in reach; it keeps what
-- the shim needs in upvalues and leaves only the sandbox visible. `bit`, `cjson` and `redis`
-- are built by their own chunks and installed through `env.install`.
--
-- Why Lua and not JavaScript: every wrapper here is called from scripts, and a Lua wrapper is
-- both faster than a trip through the WebAssembly boundary and able to raise errors the normal
-- Lua way (a JavaScript callback that longjmps is fragile).

local native = ...
local real_G = _G
local type, error, rawget, rawset, rawequal, next, select = type, error, rawget, rawset, rawequal, next, select
local tostring, tonumber, setmetatable, getmetatable = tostring, tonumber, setmetatable, getmetatable
local pcall, xpcall, load, ipairs, pairs, assert = pcall, xpcall, load, ipairs, pairs, assert
local collectgarbage = collectgarbage
local string, table, math, coroutine, debug = string, table, math, coroutine, debug
local sformat, sgsub, ssub, sbyte = string.format, string.gsub, string.sub, string.byte
local mtype, mfloor, mceil, tointeger, huge = math.type, math.floor, math.ceil, math.tointeger, math.huge
local tunpack, tconcat, tinsert = table.unpack, table.concat, table.insert
local getinfo = debug.getinfo

local env = {}

-- Work done inside one C call runs no instruction, so the library wrappers report it
-- (native.charge, in bytes: 16 make one instruction of the budget). ELEMENT_BYTES is what
-- one element moved, compared or pushed costs; calls under CHARGE_ABOVE elements are free.
local charge = native.charge
local ELEMENT_BYTES, CHARGE_ABOVE = 64, 1024
local function charge_elements(n)
  if n > CHARGE_ABOVE then charge(n * ELEMENT_BYTES) end
end
-- Passes varargs through without a tail call, so a C function's error names this chunk's
-- line (which fixerr moves to the script's) rather than no line at all.
local function pass(...) return ... end

-- Lua 5.1 prints every number with "%.14g" (it has only doubles).
local function num2str(n) return sformat('%.14g', n) end
env.num2str = num2str

local function tostring51(v)
  if type(v) == 'number' then return num2str(v) end
  return tostring(v)
end
env.tostring = tostring51

-- 5.4 keeps floats that hold whole values as floats ("5.0"); 5.1 would print them as "5".
-- Library results are turned back into integers where that is exact, so they print like 5.1.
local function tidy(x)
  if mtype(x) == 'float' and x == x and x > -9007199254740992 and x < 9007199254740992 then
    local i = tointeger(x)
    if i then return i end
  end
  return x
end
env.tidy = tidy

-- 5.1's luaL_checkint truncates floats toward zero; 5.4 raises "number has no integer
-- representation". Out-of-range values become 0, as (int) of them is undefined in C anyway.
local function trunc(x)
  if mtype(x) ~= 'float' then return x end
  if x ~= x or x >= 9.2e18 or x <= -9.2e18 then return 0 end
  return x >= 0 and mfloor(x) or mceil(x)
end
env.trunc = trunc

-- Rewrites 5.4 runtime messages into 5.1's word order:
-- "attempt to index a nil value (local 'x')" -> "attempt to index local 'x' (a nil value)".
-- Only short messages are rewritten: the pattern backtracks, and 5.4's own messages are short,
-- while a script's error(long_text) must not cost quadratic time inside one C call.
local function fixmsg(e)
  if type(e) ~= 'string' or #e > 1024 then return e end
  return (sgsub(e, "attempt to ([%a ]-) a (%a+) value %((%a+) '([^']*)'%)", function(op, ty, kind, name)
    if kind == 'constant' then return 'attempt to ' .. op .. ' a ' .. ty .. ' value' end
    return 'attempt to ' .. op .. ' ' .. kind .. " '" .. name .. "' (a " .. ty .. ' value)'
  end))
end
env.fixmsg = fixmsg

-- Read-only tables. Redis 7.0 patches Lua to flag tables read-only; 5.4 cannot, so each
-- protected table is an empty proxy whose metatable forwards reads and refuses writes.
local real_of = setmetatable({}, {__mode = 'k'})
local function readonly_write() error('Attempt to modify a readonly table', 2) end
-- getmetatable() on a proxy answers mtview (or false), never the live metatable, so a script
-- cannot reach the real table behind it.
local function protect(real, index, mtview)
  local proxy = {}
  local mt = {
    __index = index or real,
    __newindex = readonly_write,
    __pairs = function() return next, real, nil end,
    __len = function() return #real end,
    __metatable = mtview or false,
  }
  setmetatable(proxy, mt)
  real_of[proxy] = real
  return proxy
end
env.protect = protect

-- Every Lua function a script can reach is put behind a C trampoline (native.wrap). A script
-- calling a Lua function in tail position (return cjson.decode(x)) would otherwise lose its
-- own stack frame, and with it the line Redis names in errors; a C function keeps it, as the
-- real C libraries do. Errors raised inside use level 3: the trampoline sits at level 2.
local function harden(lib)
  for k, v in next, lib do
    if type(v) == 'function' and getinfo(v, 'S').what == 'Lua' then lib[k] = native.wrap(v) end
  end
  return lib
end

local function next51(t, k)
  local real = real_of[t]
  if real then return next(real, k) end
  return next(t, k)
end
local function rawget51(t, k)
  local real = real_of[t]
  if real then return rawget(real, k) end
  return rawget(t, k)
end
local function rawset51(t, k, v)
  if real_of[t] then error('Attempt to modify a readonly table', 0) end
  return rawset(t, k, v)
end
local function setmetatable51(t, mt)
  if real_of[t] then error('Attempt to modify a readonly table', 0) end
  return setmetatable(t, mt)
end

-- Redis replaces pcall so that an error table {err='...'} comes back as its message string.
local function pcall_result(ok, ...)
  if ok then return true, ... end
  local e = ...
  if type(e) == 'table' then
    local m = rawget(e, 'err')
    if type(m) == 'string' or type(m) == 'number' then return false, m end
    return false, e
  end
  return false, fixmsg(e)
end
local fixerr -- defined below, with the frame walking
local function pcall51(f, ...)
  return pcall_result(xpcall(f, fixerr, ...))
end
local function xpcall51(f, handler)
  return xpcall(f, function(e) return handler(fixerr(e, 3)) end)
end

local function tonumber51(v, base)
  -- Reading a number out of a long string scans it in C.
  if type(v) == 'string' and #v > CHARGE_ABOVE then charge(#v) end
  if base == nil then return tidy(tonumber(v)) end
  return tonumber(v, trunc(base))
end

local function running51()
  local co, main = coroutine.running()
  if main then return nil end
  return co
end

local function gcinfo() return mfloor(collectgarbage('count')) end

local sandbox_G -- the proxy scripts see as _G, set below

-- loadstring/load compile with the same 5.1 syntax check as EVAL and run in the sandbox.
local function compile51(src, chunkname)
  if ssub(src, 1, 1) == '\27' then
    return nil, '[string "' .. ssub(src, 1, 5) .. '"]:1: unexpected symbol near ' .. "'char(27)'"
  end
  local f, err = load(native.rewrite(src), chunkname, 't', sandbox_G)
  if not f then return nil, native.mapmsg(err) end
  return f
end
local function loadstring51(src, chunkname)
  if type(src) == 'number' then src = num2str(src) end
  if type(src) ~= 'string' then
    error("bad argument #1 to 'loadstring' (string expected, got " .. (src == nil and 'no value' or type(src)) .. ')', 3)
  end
  return compile51(src, chunkname or src)
end
local function load51(reader, chunkname)
  if type(reader) ~= 'function' then
    error("bad argument #1 to 'load' (function expected, got " .. (reader == nil and 'no value' or type(reader)) .. ')', 3)
  end
  local parts = {}
  while true do
    local piece = reader()
    if piece == nil or piece == '' then break end
    if type(piece) ~= 'string' then return nil, 'reader function must return a string' end
    parts[#parts + 1] = piece
  end
  return compile51(tconcat(parts), chunkname or '=(load)')
end
env.compile51 = compile51

-- Copies the named fields of a 5.4 library into a fresh table.
local function pick(lib, names)
  local t = {}
  for name in names:gmatch('%S+') do t[name] = lib[name] end
  return t
end

local string51 = pick(string, 'byte char dump find format gmatch gsub len lower match reverse sub upper')
string51.gfind = string.gmatch
-- 5.1's rep has no separator argument. Repeating an empty string answers at once: C would
-- loop n times copying nothing (string.rep('', 2^50) froze the page).
string51.rep = function(s, n)
  if s == '' and tonumber(n) then return '' end
  return (string.rep(s, n))
end
string51.byte = function(s, i, j)
  if type(s) == 'string' and (i == nil or type(i) == 'number') and (j == nil or type(j) == 'number') then
    -- The span as string.byte reads it: negative positions count from the end.
    local l = #s
    local from, to = i or 1, j or i or 1
    if from < 0 then from = l + from + 1 end
    if to < 0 then to = l + to + 1 end
    charge_elements(math.min(to, l) - math.max(from, 1))
  end
  return pass(string.byte(s, i, j))
end
-- 5.1's format truncates floats for integer conversions and prints numbers for %s like tostring.
string51.format = function(fmt, ...)
  local args = {...}
  local n = select('#', ...)
  local i = 0
  for flags, conv in tostring(fmt):gmatch('%%([-+ #0-9.]*)(.)') do
    if conv ~= '%' then
      i = i + 1
      local a = args[i]
      if (conv == 'd' or conv == 'i' or conv == 'c' or conv == 'o' or conv == 'u' or conv == 'x' or conv == 'X') then
        args[i] = trunc(a)
      elseif (conv == 's' or conv == 'q') and type(a) == 'number' then
        args[i] = num2str(a)
      end
    end
  end
  -- Called through the table (not a local, not a tail call) so a bad-argument error names
  -- 'format'; fixerr then moves the position from this chunk to the script's line.
  return (string.format(fmt, tunpack(args, 1, n)))
end
env.string = string51

local table51 = pick(table, 'concat insert remove sort')
-- Sorting without a comparator compares in C; inserting or removing before the end shifts
-- every later element in C; concat walks every element even when they are all empty.
table51.sort = function(t, comp)
  if comp == nil and type(t) == 'table' then
    local n = #t
    if n > 1 then charge_elements(mfloor(n * math.log(n, 2))) end
  end
  table.sort(t, comp)
end
table51.insert = function(t, ...)
  local pos, v = ...
  if select('#', ...) == 2 and type(t) == 'table' and type(pos) == 'number' then
    pos = trunc(pos)
    local e = #t + 1
    if pos < 1 or pos > e then
      -- 5.4 refuses a position outside 1..#t+1; 5.1 grows the array to it, or shifts
      -- everything up to it, with raw access (counted here, as a Lua loop).
      if pos > e then e = pos end
      for i = e, pos + 1, -1 do rawset(t, i, rawget(t, i - 1)) end
      rawset(t, pos, v)
      return
    end
    charge_elements(e - pos)
    table.insert(t, pos, v)
    return
  end
  table.insert(t, ...)
end
table51.remove = function(t, ...)
  local pos = ...
  if type(t) == 'table' and type(pos) == 'number' then charge_elements(#t - pos) end
  return (table.remove(t, ...))
end
table51.concat = function(t, sep, i, j)
  if type(t) == 'table' and (i == nil or type(i) == 'number') and (j == nil or type(j) == 'number') then
    charge_elements((j or #t) - (i or 1))
  end
  return (table.concat(t, sep, i, j))
end
table51.getn = function(t) return #t end
table51.setn = function() error("'setn' is obsolete", 3) end
table51.maxn = function(t)
  local max = 0
  for k in next, t do
    if type(k) == 'number' and k > max then max = k end
  end
  return max
end
table51.foreach = function(t, f)
  for k, v in next, t do
    local r = f(k, v)
    if r ~= nil then return r end
  end
end
table51.foreachi = function(t, f)
  for i = 1, #t do
    local r = f(i, t[i])
    if r ~= nil then return r end
  end
end
env.table = table51

local function tidied(f)
  return function(...) return tidy(f(...)) end
end
-- Generated with the field name spelled out, so bad-argument errors name the function.
local function tidied_field(name)
  return load('local M, tidy = ... return function(...) return tidy((M.' .. name .. '(...))) end', '=sandbox')(math, tidy)
end
local math51 = {}
for name in ('abs acos asin ceil cos deg exp floor max min rad sin sqrt tan'):gmatch('%S+') do
  math51[name] = tidied_field(name)
end
math51.huge, math51.pi = math.huge, math.pi
math51.atan = tidied(function(y) return math.atan(y) end)
math51.atan2 = tidied(function(y, x) return math.atan(y, x) end)
math51.log = tidied(function(x) return math.log(x) end)
math51.log10 = tidied(function(x) return math.log(x, 10) end)
math51.pow = tidied(function(x, y) return x ^ y end)
math51.cosh = tidied(function(x) return (math.exp(x) + math.exp(-x)) / 2 end)
math51.sinh = tidied(function(x) return (math.exp(x) - math.exp(-x)) / 2 end)
math51.tanh = tidied(function(x)
  if x > 20 then return 1.0 elseif x < -20 then return -1.0 end
  local a, b = math.exp(x), math.exp(-x)
  return (a - b) / (a + b)
end)
math51.fmod = function(a, b)
  if mtype(a) == 'integer' and mtype(b) == 'integer' and b ~= 0 then return math.fmod(a, b) end
  return tidy(math.fmod(a + 0.0, b + 0.0))
end
math51.mod = math51.fmod
math51.modf = function(x)
  local i, f = math.modf(x)
  return tidy(i), tidy(f)
end
math51.ldexp = tidied(function(m, e) return m * 2.0 ^ trunc(e) end)
math51.frexp = function(x)
  if x == 0 or x ~= x or x == huge or x == -huge then return x, 0 end
  local e = mfloor(math.log(math.abs(x), 2)) + 1
  local m = x / 2.0 ^ e
  if math.abs(m) >= 1 then m, e = m / 2, e + 1 elseif math.abs(m) < 0.5 then m, e = m * 2, e - 1 end
  return tidy(m), e
end

-- Redis's math.random draws from rand48, kept by the host (native.lrand48) so its state
-- survives VM restarts like the server's does; it is not reseeded between scripts.
local lrand48, srand48 = native.lrand48, native.srand48

-- luaL_checknumber: 5.1 takes numeric strings wherever it wants a number (a seed from ARGV).
local function checknumber(v, n, fname)
  if type(v) == 'number' then return v end
  local x = type(v) == 'string' and tonumber(v) or nil
  if x == nil then
    error('bad argument #' .. n .. " to '" .. fname .. "' (number expected, got " .. (v == nil and 'no value' or type(v)) .. ')', 4)
  end
  return x
end

math51.random = function(...)
  local n = select('#', ...)
  local r = (lrand48() % 2147483647) / 2147483647.0
  if n == 0 then return r end
  if n == 1 then
    local u = trunc(checknumber(..., 1, 'random'))
    if u < 1 then error("bad argument #1 to 'random' (interval is empty)", 3) end
    return mfloor(r * u) + 1
  end
  if n == 2 then
    local l, u = ...
    l, u = trunc(checknumber(l, 1, 'random')), trunc(checknumber(u, 2, 'random'))
    if l > u then error("bad argument #2 to 'random' (interval is empty)", 3) end
    return mfloor(r * (u - l + 1)) + l
  end
  error('wrong number of arguments', 3)
end
math51.randomseed = function(seed)
  srand48(trunc(checknumber(seed, 1, 'randomseed')))
end
-- 5.4's max/min compare their arguments as they are, so strings raise a comparison error.
math51.max = function(...)
  local best = checknumber((...), 1, 'max')
  for i = 2, select('#', ...) do
    local v = checknumber((select(i, ...)), i, 'max')
    if v > best then best = v end
  end
  return tidy(best)
end
math51.min = function(...)
  local best = checknumber((...), 1, 'min')
  for i = 2, select('#', ...) do
    local v = checknumber((select(i, ...)), i, 'min')
    if v < best then best = v end
  end
  return tidy(best)
end
env.math = math51

-- unpack pushes every element in C. Past a million, unpack itself refuses ("too many
-- results to unpack"), so nothing is charged for that.
local function unpack51(t, i, j)
  if type(t) == 'table' and (i == nil or type(i) == 'number') and (j == nil or type(j) == 'number') then
    local n = (j or #t) - (i or 1)
    if n < 1000000 then charge_elements(n) end
  end
  return pass(tunpack(t, i, j))
end

local coroutine51 = pick(coroutine, 'create resume status wrap yield')
coroutine51.running = running51

harden(string51)
harden(table51)
harden(math51)
harden(coroutine51)
local globals = {
  assert = assert, collectgarbage = collectgarbage, error = native.error, gcinfo = gcinfo,
  getmetatable = getmetatable, ipairs = ipairs, load = load51, loadstring = loadstring51,
  next = next51, pairs = pairs, pcall = pcall51, rawequal = rawequal, rawget = rawget51,
  rawset = rawset51, select = select, setmetatable = setmetatable51, tonumber = tonumber51,
  tostring = tostring51, type = type, unpack = unpack51, xpcall = xpcall51,
  _VERSION = 'Lua 5.1',
  string = protect(string51), table = protect(table51), math = protect(math51),
  coroutine = protect(coroutine51),
}

-- Scripts see _G through a proxy: reading a missing name raises Redis's message.
local function missing_global(_, name)
  local v = rawget(globals, name)
  if v == nil then
    if type(name) == 'number' then name = num2str(name) end
    error("Script attempted to access nonexistent global variable '" .. tostring(name) .. "'", 2)
  end
  return v
end
harden(globals)
-- Reads go from the proxy straight to globals, a table, which the VM follows without calling
-- any function; only a miss reaches missing_global. Scripts never get hold of globals itself,
-- so its metatable is invisible to them.
setmetatable(globals, {__index = missing_global})
sandbox_G = protect(globals, nil, protect({__index = missing_global}))
globals._G = sandbox_G
env.G = sandbox_G
env.globals = globals

-- Strings index the protected string table; getmetatable('') answers a read-only view.
local string_mt = getmetatable('')
string_mt.__index = globals.string
string_mt.__metatable = protect(string_mt)

-- EVAL bodies compile as the chunk "@user_script" (hence "user_script:1:" in messages) with the
-- sandbox as their environment. The body was already checked for 5.1 syntax by the host.
function env.compile_user(src)
  return load(src, '@user_script', 't', sandbox_G)
end

-- Libraries built by later chunks (bit, cjson, redis) are installed read-only.
function env.install(name, lib)
  globals[name] = protect(harden(lib))
end

-- Errors are located at the innermost frame that is neither C nor part of this shim, which
-- is the script line Redis would name.
local shim_sources = {['=sandbox'] = true, ['=redis'] = true, ['=bit'] = true, ['=cjson'] = true, ['=pattern'] = true, ['=cmsgpack'] = true}
local function user_frame(level)
  while true do
    local info = getinfo(level, 'Sl')
    if not info then return nil end
    if info.what ~= 'C' and not shim_sources[info.source] then return info end
    level = level + 1
  end
end

-- The frame that called the library function whose shim code raised an error. 5.1's C
-- libraries name their caller's line (luaL_where(L, 1)), and none when the caller is C, as in
-- pcall(string.find, ...). Above the shim's frames sits at most one C frame of its own (the
-- trampoline of harden()); a second C frame before the script's means a C caller.
local function library_caller(level)
  local c_frames, seen_shim = 0, false
  while true do
    local info = getinfo(level, 'Sl')
    if not info then return nil end
    if shim_sources[info.source] then
      -- Two C frames between shim frames: a library function called by pcall (itself a shim).
      if seen_shim and c_frames >= 2 then return nil end
      seen_shim, c_frames = true, 0
    elseif info.what == 'C' then
      c_frames = c_frames + 1
    elseif seen_shim then
      if c_frames <= 1 then return info end
      return nil
    else
      return info
    end
    level = level + 1
  end
end

-- A library wrapper written in Lua raises "sandbox:12: bad argument..."; 5.1's C library
-- would have named the script's line. Also rewrites 5.4 wording (fixmsg).
-- level is where the error's own frames start, seen from fixerr: 2 when fixerr is the
-- message handler itself, more when a handler calls it.
function fixerr(e, level)
  if type(e) ~= 'string' then return e end
  e = fixmsg(e)
  local shim, rest = e:match('^(%a+):%d+: (.*)$')
  if shim and shim_sources['=' .. shim] then
    local info = library_caller(level or 2)
    if info then
      e = info.short_src .. ':' .. info.currentline .. ': ' .. rest
    else
      -- Called from C (pcall), 5.1's luaL_argerror has no name for the function either.
      e = sgsub(rest, "^(bad argument #%d+ to )'[^']*'", "%1'?'")
    end
  end
  return e
end

-- The top-level message handler, like Redis's __redis__err__handler: any error becomes a
-- table {err=..., source=..., line=...}.
function env.handler(err)
  if type(err) ~= 'table' then
    -- Below this handler: the host's C entry to it (see luaScriptEngine.ts), then the error.
    err = {err = 'ERR ' .. tostring51(fixerr(err, 4))}
  end
  local info = user_frame(2)
  if info then
    pcall(function()
      rawset(err, 'source', info.source)
      rawset(err, 'line', info.currentline)
    end)
  end
  return err
end

-- Called before each script: fresh KEYS/ARGV, after the previous script's cleanup (done here
-- rather than in a call of its own after each script, to save a trip into the VM per script).
-- A script may have stopped the collector. Restarting a running collector is not free: it
-- zeroes the GC debt, so the next allocation would run a GC step (tens of microseconds) after
-- every single script. The host asks for a full collection when the heap grew large.
function env.begin_run(keys, argv, collect)
  if not collectgarbage('isrunning') then collectgarbage('restart') end
  if collect then collectgarbage('collect') end
  env.reset_patterns()
  env.reset_cjson()
  rawset(globals, 'KEYS', keys)
  rawset(globals, 'ARGV', argv)
end

-- The host's own globals (print, io, debug ...) stay in real_G, which no script can reach:
-- scripts compile with sandbox_G as their environment and have no debug library.
env.real_G = real_G

return env
