-- The `bit` table (LuaBitOp, as bundled with Redis): 32-bit operations whose
-- results are signed 32-bit numbers. Written with 5.4's native 64-bit integer operators,
-- which only this private chunk may use (scripts are held to 5.1 syntax).

local env = ...
local type, select, error, tonumber = type, select, error, tonumber
local mtype, mfloor, sformat = math.type, math.floor, string.format

-- LuaBitOp normalises by adding 2^52+2^51 to the double: that rounds half to even and keeps
-- the value modulo 2^32.
local function checkbit(x, argn, fname)
  local n = tonumber(x)
  if n == nil then
    error("bad argument #" .. argn .. " to '" .. fname .. "' (number expected, got " .. (x == nil and 'no value' or type(x)) .. ')', 4)
  end
  if mtype(n) == 'float' then
    if n ~= n or n == math.huge or n == -math.huge then return 0 end
    local r = mfloor(n + 0.5)
    if r - n == 0.5 and r % 2 ~= 0 then r = r - 1 end
    n = math.tointeger(r % 4294967296) or 0
  end
  return n & 0xffffffff
end
local function signed(u)
  u = u & 0xffffffff
  if u >= 0x80000000 then return u - 0x100000000 end
  return u
end

local bit = {}
function bit.tobit(x) return signed(checkbit(x, 1, 'tobit')) end
function bit.bnot(x) return signed(~checkbit(x, 1, 'bnot')) end
local function fold(name, op)
  bit[name] = function(...)
    local r = checkbit((...), 1, name)
    for i = 2, select('#', ...) do r = op(r, checkbit((select(i, ...)), i, name)) end
    return signed(r)
  end
end
fold('band', function(a, b) return a & b end)
fold('bor', function(a, b) return a | b end)
fold('bxor', function(a, b) return a ~ b end)
function bit.lshift(x, n) return signed(checkbit(x, 1, 'lshift') << (checkbit(n, 2, 'lshift') & 31)) end
function bit.rshift(x, n) return signed(checkbit(x, 1, 'rshift') >> (checkbit(n, 2, 'rshift') & 31)) end
function bit.arshift(x, n)
  local v, s = signed(checkbit(x, 1, 'arshift')), checkbit(n, 2, 'arshift') & 31
  if v < 0 then return signed(~((~v) >> s)) end
  return signed(v >> s)
end
function bit.rol(x, n)
  local v, s = checkbit(x, 1, 'rol'), checkbit(n, 2, 'rol') & 31
  return signed((v << s) | (v >> (32 - s)))
end
function bit.ror(x, n)
  local v, s = checkbit(x, 1, 'ror'), checkbit(n, 2, 'ror') & 31
  return signed((v >> s) | (v << (32 - s)))
end
function bit.bswap(x)
  local v = checkbit(x, 1, 'bswap')
  return signed(((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >> 8) & 0xff00) | (v >> 24))
end
function bit.tohex(x, n)
  local v = checkbit(x, 1, 'tohex')
  local digits = n == nil and 8 or signed(checkbit(n, 2, 'tohex'))
  local conv = 'x'
  if digits < 0 then digits, conv = -digits, 'X' end
  if digits > 8 then digits = 8 end
  if digits == 0 then return '' end
  return sformat('%0' .. digits .. conv, v & ((1 << (4 * digits)) - 1))
end

env.install('bit', bit)
