-- `cmsgpack` (lua-cmsgpack 0.4.0, as Redis 7.0 bundles it): pack/unpack,
-- unpack_one and unpack_limit with its encodings (smallest integer form, float32 when exact,
-- arrays only for keys 1..n, tables nested past 16 levels packed as nil) and error texts.
-- Written in Lua so its work counts against the script's budget.

local env, native = ...
local type, select, error, next, tonumber = type, select, error, next, tonumber
local spack, sunpack, schar, sbyte, ssub = string.pack, string.unpack, string.char, string.byte, string.sub
local mtype, mfloor, huge, tconcat, tunpack = math.type, math.floor, math.huge, table.concat, table.unpack
local MAX_NESTING = 16

local function encode_int(n, out)
  if n >= 0 then
    if n <= 127 then out[#out + 1] = schar(n)
    elseif n <= 0xff then out[#out + 1] = '\xcc' .. schar(n)
    elseif n <= 0xffff then out[#out + 1] = '\xcd' .. spack('>I2', n)
    elseif n <= 0xffffffff then out[#out + 1] = '\xce' .. spack('>I4', n)
    else out[#out + 1] = '\xcf' .. spack('>i8', n) end
  else
    if n >= -32 then out[#out + 1] = schar(n + 256)
    elseif n >= -128 then out[#out + 1] = '\xd0' .. spack('>i1', n)
    elseif n >= -32768 then out[#out + 1] = '\xd1' .. spack('>i2', n)
    elseif n >= -2147483648 then out[#out + 1] = '\xd2' .. spack('>i4', n)
    else out[#out + 1] = '\xd3' .. spack('>i8', n) end
  end
end

local function encode_number(v, out)
  if mtype(v) == 'integer' then return encode_int(v, out) end
  -- 5.1 has only doubles: whole values in int64 range go as integers (IS_INT64_EQUIVALENT).
  if v == v and v ~= huge and v ~= -huge and v == mfloor(v) and v >= -9.2233720368547758e18 and v < 9.2233720368547758e18 then
    return encode_int(math.tointeger(v), out)
  end
  local f = sunpack('>f', spack('>f', v))
  if f == v then out[#out + 1] = '\xca' .. spack('>f', v) else out[#out + 1] = '\xcb' .. spack('>d', v) end
end

local function encode_length(n, fix, small, h16, h32, out)
  if n <= small then out[#out + 1] = schar(fix + n)
  elseif n <= 0xffff then out[#out + 1] = h16 .. spack('>I2', n)
  else out[#out + 1] = h32 .. spack('>I4', n) end
end

local function is_array(t)
  local count, max = 0, 0
  for k in next, t do
    if type(k) ~= 'number' or k <= 0 or k ~= mfloor(k) then return false end
    if k > max then max = k end
    count = count + 1
  end
  return max == count
end

local encode
function encode(v, level, out)
  local t = type(v)
  if t == 'table' and level == MAX_NESTING then t = 'nil' end
  if t == 'string' then
    local n = #v
    if n < 32 then out[#out + 1] = schar(0xa0 + n)
    elseif n <= 0xff then out[#out + 1] = '\xd9' .. schar(n)
    elseif n <= 0xffff then out[#out + 1] = '\xda' .. spack('>I2', n)
    else out[#out + 1] = '\xdb' .. spack('>I4', n) end
    out[#out + 1] = v
  elseif t == 'boolean' then
    out[#out + 1] = v and '\xc3' or '\xc2'
  elseif t == 'number' then
    encode_number(v, out)
  elseif t == 'table' then
    if is_array(v) then
      local n = #v
      encode_length(n, 0x90, 15, '\xdc', '\xdd', out)
      for i = 1, n do encode(v[i], level + 1, out) end
    else
      local n = 0
      for _ in next, v do n = n + 1 end
      encode_length(n, 0x80, 15, '\xde', '\xdf', out)
      for k, x in next, v do
        encode(k, level + 1, out)
        encode(x, level + 1, out)
      end
    end
  else
    out[#out + 1] = '\xc0'
  end
end

local cmsgpack = {}
function cmsgpack.pack(...)
  local n = select('#', ...)
  if n == 0 then error("bad argument #0 to 'pack' (MessagePack pack needs input.)") end
  local out = {}
  for i = 1, n do encode((select(i, ...)), 0, out) end
  return tconcat(out)
end

-- Decoding raises these two, as the C code does after a failed value.
local MISSING, BAD = {}, {}

local decode
local function need(s, pos, n)
  if pos + n - 1 > #s then error(MISSING) end
end
local function decode_table(s, pos, n, map)
  local t = {}
  for i = 1, n do
    if map then
      local k, v
      k, pos = decode(s, pos)
      v, pos = decode(s, pos)
      if k ~= nil then t[k] = v end
    else
      t[i], pos = decode(s, pos)
    end
  end
  return t, pos
end
local fixed = {
  [0xcc] = {1, '>I1'}, [0xcd] = {2, '>I2'}, [0xce] = {4, '>I4'}, [0xcf] = {8, '>I8'},
  [0xd0] = {1, '>i1'}, [0xd1] = {2, '>i2'}, [0xd2] = {4, '>i4'}, [0xd3] = {8, '>i8'},
  [0xca] = {4, '>f'}, [0xcb] = {8, '>d'},
}
local lengths = {[0xd9] = {1, '>I1'}, [0xda] = {2, '>I2'}, [0xdb] = {4, '>I4'},
  [0xdc] = {2, '>I2', false}, [0xdd] = {4, '>I4', false}, [0xde] = {2, '>I2', true}, [0xdf] = {4, '>I4', true}}
function decode(s, pos)
  need(s, pos, 1)
  local b = sbyte(s, pos)
  local f = fixed[b]
  if f then
    need(s, pos, 1 + f[1])
    local v = sunpack(f[2], s, pos + 1)
    if b == 0xcf and v < 0 then v = v + 18446744073709551616.0 end
    return v, pos + 1 + f[1]
  end
  local l = lengths[b]
  if l then
    need(s, pos, 1 + l[1])
    local n = sunpack(l[2], s, pos + 1)
    pos = pos + 1 + l[1]
    if l[3] == nil then
      need(s, pos, n)
      return ssub(s, pos, pos + n - 1), pos + n
    end
    return decode_table(s, pos, n, l[3])
  end
  if b == 0xc0 then return nil, pos + 1 end
  if b == 0xc3 then return true, pos + 1 end
  if b == 0xc2 then return false, pos + 1 end
  if b < 0x80 then return b, pos + 1 end
  if b >= 0xe0 then return b - 256, pos + 1 end
  if b >= 0xa0 and b < 0xc0 then
    local n = b - 0xa0
    need(s, pos + 1, n)
    return ssub(s, pos + 1, pos + n), pos + 1 + n
  end
  if b >= 0x90 and b < 0xa0 then return decode_table(s, pos + 1, b - 0x90, false) end
  if b >= 0x80 and b < 0x90 then return decode_table(s, pos + 1, b - 0x80, true) end
  error(BAD)
end

local function check_string(v, fname)
  if type(v) == 'string' then return v end
  if type(v) == 'number' then return env.num2str(v) end
  error("bad argument #1 to '" .. fname .. "' (string expected, got " .. (v == nil and 'no value' or type(v)) .. ')')
end
local function check_integer(v, n, fname, default)
  if v == nil and default ~= nil then return default end
  local x = tonumber(v)
  if x == nil then
    error('bad argument #' .. n .. " to '" .. fname .. "' (number expected, got " .. (v == nil and 'no value' or type(v)) .. ')')
  end
  return env.trunc(x)
end

-- mp_unpack_full: values from offset, at most limit of them (all when both are 0); with a
-- limit or offset, the next offset (-1 at the end) comes first.
local function unpack_full(fname, s, limit, offset)
  s = check_string(s, fname)
  local len = #s
  if offset < 0 or limit < 0 then
    error('Invalid request to unpack with offset of ' .. offset .. ' and limit of ' .. len .. '.')
  elseif offset > len then
    error('Start offset ' .. offset .. ' greater than input length ' .. len .. '.')
  end
  local all = limit == 0 and offset == 0
  if all then limit = 2147483647 end
  local values, count, pos = {}, 0, offset + 1
  while pos <= len and count < limit do
    local ok, v, nextpos = pcall(decode, s, pos)
    if not ok then
      if v == MISSING then error('Missing bytes in input.') end
      if v == BAD then error('Bad data format in input.') end
      error(v, 0)
    end
    count = count + 1
    values[count] = v
    pos = nextpos
  end
  if all then return tunpack(values, 1, count) end
  return pos > len and -1 or pos - 1, tunpack(values, 1, count)
end

function cmsgpack.unpack(s) return unpack_full('unpack', s, 0, 0) end
function cmsgpack.unpack_one(s, offset)
  return unpack_full('unpack_one', s, 1, check_integer(offset, 2, 'unpack_one', 0))
end
function cmsgpack.unpack_limit(s, limit, offset)
  limit = check_integer(limit, 2, 'unpack_limit')
  return unpack_full('unpack_limit', s, limit, check_integer(offset, 3, 'unpack_limit', 0))
end
cmsgpack._NAME = 'cmsgpack'
cmsgpack._VERSION = 'lua-cmsgpack 0.4.0'
cmsgpack._COPYRIGHT = 'Copyright (C) 2012, Salvatore Sanfilippo'
cmsgpack._DESCRIPTION = 'MessagePack C implementation for Lua'

env.install('cmsgpack', cmsgpack)
