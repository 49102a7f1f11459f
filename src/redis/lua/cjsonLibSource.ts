/**
 * Lua source of a small `cjson` (the lua-cjson 2.1.0 that Redis bundles): encode/decode with
 * its defaults (14 significant digits, `\/` escaped, sparse-array rule, depth 1000) and its
 * error texts for the common cases. `cjson.null` is a light userdata, as in lua-cjson.
 * Object key order follows 5.4's table iteration, which differs from Redis's 5.1 order.
 */
export const cjsonLibSource = String.raw`
local env, native = ...
local type, pairs, next, error, select, tonumber = type, pairs, next, error, select, tonumber
local sformat, sbyte, schar, ssub, sfind, sgsub = string.format, string.byte, string.char, string.sub, string.find, string.gsub
local mtype, mfloor, huge, tconcat = math.type, math.floor, math.huge, table.concat
local num2str, tidy = env.num2str, env.tidy
local null = native.null

local escapes = {['"'] = '\\"', ['\\'] = '\\\\', ['/'] = '\\/', ['\b'] = '\\b', ['\f'] = '\\f',
  ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t', ['\127'] = '\\u007f'}
local function escape_char(c)
  return escapes[c] or sformat('\\u%04x', sbyte(c))
end
local function encode_string(s)
  return '"' .. sgsub(s, '[%c"\\/]', escape_char) .. '"'
end

-- lua-cjson's array test: only positive whole-number keys, and not excessively sparse.
local function array_length(t)
  local max, items = 0, 0
  for k in next, t do
    if type(k) == 'number' and k >= 1 and k == mfloor(k) then
      if k > max then max = k end
      items = items + 1
    else
      return -1
    end
  end
  if max > 10 and max > items * 2 then
    error('Cannot serialise table: excessively sparse array', 0)
  end
  return max
end

local encode_value
local function encode_table(t, depth, out)
  if depth > 1000 then error('Cannot serialise, excessive nesting (' .. depth .. ')', 0) end
  local n = array_length(t)
  if n > 0 then
    out[#out + 1] = '['
    for i = 1, n do
      if i > 1 then out[#out + 1] = ',' end
      encode_value(t[i], depth, out)
    end
    out[#out + 1] = ']'
    return
  end
  out[#out + 1] = '{'
  local first = true
  for k, v in next, t do
    if not first then out[#out + 1] = ',' end
    first = false
    local kt = type(k)
    if kt == 'string' then
      out[#out + 1] = encode_string(k)
    elseif kt == 'number' then
      out[#out + 1] = '"' .. num2str(k) .. '"'
    else
      error('Cannot serialise table: table key must be a number or string', 0)
    end
    out[#out + 1] = ':'
    encode_value(v, depth, out)
  end
  out[#out + 1] = '}'
end

function encode_value(v, depth, out)
  local t = type(v)
  if t == 'string' then
    out[#out + 1] = encode_string(v)
  elseif t == 'number' then
    if v ~= v or v == huge or v == -huge then
      error('Cannot serialise number: must not be NaN or Inf', 0)
    end
    out[#out + 1] = num2str(v)
  elseif t == 'boolean' then
    out[#out + 1] = v and 'true' or 'false'
  elseif t == 'nil' or v == null then
    out[#out + 1] = 'null'
  elseif t == 'table' then
    encode_table(v, depth + 1, out)
  else
    error('Cannot serialise ' .. t .. ': type not supported', 0)
  end
end

local cjson = {}
function cjson.encode(...)
  if select('#', ...) ~= 1 then error('bad argument #1 to \'encode\' (expected 1 argument)', 3) end
  local out = {}
  local ok, err = pcall(encode_value, (...), 0, out)
  if not ok then error(err, 3) end
  return tconcat(out)
end

-- The decoder reports positions as lua-cjson does: "at character N", counting from 1.
local function decode_error(expected, found, pos)
  error('Expected ' .. expected .. ' but found ' .. found .. ' at character ' .. pos, 0)
end

local function skip_space(s, i)
  local _, e = sfind(s, '^[ \t\r\n]*', i)
  return e + 1
end

local token_names = {['{'] = 'T_OBJ_BEGIN', ['}'] = 'T_OBJ_END', ['['] = 'T_ARR_BEGIN', [']'] = 'T_ARR_END',
  [':'] = 'T_COLON', [','] = 'T_COMMA', ['"'] = 'T_STRING'}
local function found_at(s, i)
  local c = ssub(s, i, i)
  if c == '' then return 'T_END' end
  if token_names[c] then return token_names[c] end
  if sfind(c, '[-0-9]') then return 'T_NUMBER' end
  if ssub(s, i, i + 3) == 'true' or ssub(s, i, i + 4) == 'false' then return 'T_BOOLEAN' end
  if ssub(s, i, i + 3) == 'null' then return 'T_NULL' end
  return 'invalid token'
end

local function utf8_of(cp)
  if cp < 0x80 then return schar(cp) end
  if cp < 0x800 then return schar(0xC0 | (cp >> 6), 0x80 | (cp & 0x3F)) end
  if cp < 0x10000 then return schar(0xE0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3F), 0x80 | (cp & 0x3F)) end
  return schar(0xF0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3F), 0x80 | ((cp >> 6) & 0x3F), 0x80 | (cp & 0x3F))
end
local simple_escapes = {['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t'}

local function decode_string(s, i)
  local parts, j = {}, i + 1
  while true do
    local a, b = sfind(s, '^[^"\\]+', j)
    if a then parts[#parts + 1] = ssub(s, a, b); j = b + 1 end
    local c = ssub(s, j, j)
    if c == '"' then return tconcat(parts), j + 1 end
    if c == '' then decode_error('value', 'invalid token', i) end
    local e = ssub(s, j + 1, j + 1)
    if simple_escapes[e] then
      parts[#parts + 1] = simple_escapes[e]; j = j + 2
    elseif e == 'u' then
      local cp = tonumber(ssub(s, j + 2, j + 5), 16)
      if not cp or #ssub(s, j + 2, j + 5) ~= 4 then decode_error('value', 'invalid token', i) end
      j = j + 6
      if cp >= 0xD800 and cp < 0xDC00 and ssub(s, j, j + 1) == '\\u' then
        local lo = tonumber(ssub(s, j + 2, j + 5), 16)
        if lo and lo >= 0xDC00 and lo < 0xE000 then
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00); j = j + 6
        end
      end
      parts[#parts + 1] = utf8_of(cp)
    else
      decode_error('value', 'invalid token', i)
    end
  end
end

local decode_value
local function decode_container(s, i, depth, closing)
  if depth > 1000 then error('Found too many nested data structures (' .. depth .. ') at character ' .. i, 0) end
  local result, n = {}, 0
  local j = skip_space(s, i + 1)
  if ssub(s, j, j) == closing then return result, j + 1 end
  while true do
    if closing == '}' then
      if ssub(s, j, j) ~= '"' then decode_error('object key string', found_at(s, j), j) end
      local key
      key, j = decode_string(s, j)
      j = skip_space(s, j)
      if ssub(s, j, j) ~= ':' then decode_error('colon', found_at(s, j), j) end
      local v
      v, j = decode_value(s, skip_space(s, j + 1), depth)
      result[key] = v
    else
      local v
      v, j = decode_value(s, j, depth)
      n = n + 1
      result[n] = v
    end
    j = skip_space(s, j)
    local c = ssub(s, j, j)
    if c == closing then return result, j + 1 end
    if c ~= ',' then
      decode_error(closing == '}' and 'comma or object end' or 'comma or array end', found_at(s, j), j)
    end
    j = skip_space(s, j + 1)
  end
end

function decode_value(s, i, depth)
  local c = ssub(s, i, i)
  if c == '{' then return decode_container(s, i, depth + 1, '}') end
  if c == '[' then return decode_container(s, i, depth + 1, ']') end
  if c == '"' then return decode_string(s, i) end
  if ssub(s, i, i + 3) == 'true' then return true, i + 4 end
  if ssub(s, i, i + 4) == 'false' then return false, i + 5 end
  if ssub(s, i, i + 3) == 'null' then return null, i + 4 end
  local a, b = sfind(s, '^-?%d+%.?%d*[eE]?[-+]?%d*', i)
  if a then
    local v = tonumber(ssub(s, a, b))
    if v then return tidy(v + 0.0), b + 1 end
  end
  return decode_error('value', found_at(s, i), i)
end

function cjson.decode(...)
  if select('#', ...) ~= 1 then error('bad argument #1 to \'decode\' (expected 1 argument)', 3) end
  local s = ...
  if type(s) == 'number' then s = num2str(s) end
  if type(s) ~= 'string' then error("bad argument #1 to 'decode' (string expected, got " .. type(s) .. ')', 3) end
  local ok, v, j = pcall(decode_value, s, skip_space(s, 1), 0)
  if not ok then error(v, 3) end
  j = skip_space(s, j)
  if j <= #s then
    error('Expected the end but found ' .. found_at(s, j) .. ' at character ' .. j, 3)
  end
  return v
end

cjson.null = null
cjson._NAME, cjson._VERSION = 'cjson', '2.1.0'
-- The configuration functions answer lua-cjson's defaults; the simulator does not change them.
function cjson.encode_sparse_array() return false, 2, 10 end
function cjson.encode_max_depth() return 1000 end
function cjson.decode_max_depth() return 1000 end
function cjson.encode_number_precision() return 14 end
function cjson.encode_keep_buffer() return true end
function cjson.encode_invalid_numbers() return false end
function cjson.decode_invalid_numbers() return true end
function cjson.new() return cjson end

env.install('cjson', cjson)
`;
