-- A small `cjson` (the lua-cjson 2.1.0 that Redis bundles): encode/decode with
-- its defaults (14 significant digits, `\/` escaped, sparse-array rule, depth 1000) and its
-- error texts for the common cases. `cjson.null` is a light userdata, as in lua-cjson.
-- Object key order follows 5.4's table iteration, which differs from Redis's 5.1 order.

local env, native = ...
local type, pairs, ipairs, next, error, select, tonumber = type, pairs, ipairs, next, error, select, tonumber
local sformat, sbyte, schar, ssub, sfind, sgsub = string.format, string.byte, string.char, string.sub, string.find, string.gsub
local mtype, mfloor, huge, tconcat = math.type, math.floor, math.huge, table.concat
local num2str, tidy = env.num2str, env.tidy
local null = native.null

-- lua-cjson's settings. Redis keeps them until SCRIPT FLUSH; here they last for one script
-- (env.reset_cjson runs before each), so a script's behaviour never depends on what ran
-- before it in the same VM, which simulations share.
local DEFAULTS = {sparse_convert = 0, sparse_ratio = 2, sparse_safe = 10, encode_max_depth = 1000,
  decode_max_depth = 1000, encode_invalid_numbers = 0, decode_invalid_numbers = 1, keep_buffer = 1,
  precision = 14}
local cfg, cfg_changed = {}, true
function env.reset_cjson()
  if cfg_changed then
    for k, v in next, DEFAULTS do cfg[k] = v end
    cfg_changed = false
  end
end
env.reset_cjson()

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
  if cfg.sparse_ratio > 0 and max > items * cfg.sparse_ratio and max > cfg.sparse_safe then
    if cfg.sparse_convert == 0 then error('Cannot serialise table: excessively sparse array', 0) end
    return -1
  end
  return max
end

local encode_value
local function encode_table(t, depth, out)
  if depth > cfg.encode_max_depth then error('Cannot serialise, excessive nesting (' .. depth .. ')', 0) end
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
      error('Cannot serialise ' .. kt .. ': table key must be a number or string', 0)
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
      local mode = cfg.encode_invalid_numbers
      if mode == 0 then error('Cannot serialise number: must not be NaN or Inf', 0) end
      if mode == 2 then
        out[#out + 1] = 'null'
        return
      end
      if v ~= v then
        out[#out + 1] = 'nan'
        return
      end
    end
    out[#out + 1] = cfg.precision == 14 and num2str(v) or sformat('%.' .. cfg.precision .. 'g', v)
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
  if depth > cfg.decode_max_depth then error('Found too many nested data structures (' .. depth .. ') at character ' .. i, 0) end
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

-- json_is_invalid_number: what strict JSON forbids but strtod reads (a leading '+', hex,
-- leading zeros, inf, nan).
local function is_invalid_number(s, i)
  local c = ssub(s, i, i)
  if c == '+' then return true end
  if c == '-' then
    i = i + 1
    c = ssub(s, i, i)
  end
  if c == '0' then
    local c2 = ssub(s, i + 1, i + 1)
    return c2 == 'x' or c2 == 'X' or (c2 ~= '' and c2 >= '0' and c2 <= '9')
  end
  if c == '' or c <= '9' then return false end
  local word = ssub(s, i, i + 2):lower()
  return word == 'inf' or word == 'nan'
end

-- C's strtod on the text at i: the number and the index after it, or nil when it reads none.
local function strtod(s, i)
  local j, negative = i, false
  local c = ssub(s, j, j)
  if c == '+' or c == '-' then
    negative = c == '-'
    j = j + 1
  end
  local word = ssub(s, j, j + 7):lower()
  if ssub(word, 1, 3) == 'inf' then
    return negative and -huge or huge, j + (word == 'infinity' and 8 or 3)
  end
  if ssub(word, 1, 3) == 'nan' then return -(0 / 0), j + 3 end
  if ssub(word, 1, 2) == '0x' then
    local _, e = sfind(s, '^%x*%.?%x*', j + 2)
    if e > j + 1 and sfind(ssub(s, j + 2, e), '%x') then
      local _, pe = sfind(s, '^[pP][-+]?%d+', e + 1)
      e = pe or e
      local v = tonumber(ssub(s, j, e))
      if v then return negative and -v or v, e + 1 end
    end
    return negative and -0.0 or 0.0, j + 1
  end
  local _, e = sfind(s, '^%d*%.?%d*', j)
  if not sfind(ssub(s, j, e), '%d') then return nil end
  local _, xe = sfind(s, '^[eE][-+]?%d+', e + 1)
  e = xe or e
  local v = tonumber(ssub(s, j, e))
  if v == nil then return nil end
  return negative and -v or v, e + 1
end

local function decode_number(s, i)
  local v, e = strtod(s, i)
  if v == nil then decode_error('value', 'invalid number', i) end
  return tidy(v + 0.0), e
end

function decode_value(s, i, depth)
  local c = ssub(s, i, i)
  if c == '{' then return decode_container(s, i, depth + 1, '}') end
  if c == '[' then return decode_container(s, i, depth + 1, ']') end
  if c == '"' then return decode_string(s, i) end
  if c == '-' or (c ~= '' and c >= '0' and c <= '9') then
    if cfg.decode_invalid_numbers == 0 and is_invalid_number(s, i) then decode_error('value', 'invalid number', i) end
    return decode_number(s, i)
  end
  if ssub(s, i, i + 3) == 'true' then return true, i + 4 end
  if ssub(s, i, i + 4) == 'false' then return false, i + 5 end
  if ssub(s, i, i + 3) == 'null' then return null, i + 4 end
  if cfg.decode_invalid_numbers ~= 0 and is_invalid_number(s, i) then return decode_number(s, i) end
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
-- The configuration functions, with lua-cjson's argument checks and texts (json_arg_init,
-- json_integer_option, json_enum_option). Each answers the setting now in force. Errors are
-- raised at this chunk's line; the sandbox's fixerr moves them to the script's.
local function arg_init(fname, count, ...)
  if select('#', ...) > count then
    error('bad argument #' .. (count + 1) .. " to '" .. fname .. "' (found too many arguments)")
  end
end
local function integer_option(fname, key, index, v, min, max)
  if v ~= nil then
    local x = tonumber(v)
    if type(v) ~= 'number' and (type(v) ~= 'string' or x == nil) then
      error('bad argument #' .. index .. " to '" .. fname .. "' (number expected, got " .. type(v) .. ')')
    end
    x = x >= 0 and mfloor(x) or -mfloor(-x)
    -- lua-cjson names argument 1 whichever argument is out of range.
    if x < min or x > max then
      error("bad argument #1 to '" .. fname .. "' (expected integer between " .. min .. ' and ' .. max .. ')')
    end
    cfg[key], cfg_changed = tidy(x), true
  end
  return cfg[key]
end
local BOOL_OPTIONS = {'off', 'on'}
local function enum_option(fname, key, index, v, options)
  options = options or BOOL_OPTIONS
  if v ~= nil then
    if type(v) == 'boolean' then
      cfg[key] = v and 1 or 0
    else
      if type(v) == 'number' then v = num2str(v) end
      if type(v) ~= 'string' then
        error('bad argument #' .. index .. " to '" .. fname .. "' (string expected, got " .. type(v) .. ')')
      end
      local found
      for i, name in ipairs(options) do
        if name == v then found = i - 1 end
      end
      if found == nil then
        error('bad argument #' .. index .. " to '" .. fname .. "' (invalid option '" .. v .. "')")
      end
      cfg[key] = found
    end
    cfg_changed = true
  end
  local setting = cfg[key]
  if setting <= 1 then return setting == 1 end
  return options[setting + 1]
end
local INT_MAX = 2147483647
function cjson.encode_sparse_array(...)
  arg_init('encode_sparse_array', 3, ...)
  local convert, ratio, safe = ...
  return enum_option('encode_sparse_array', 'sparse_convert', 1, convert),
    integer_option('encode_sparse_array', 'sparse_ratio', 2, ratio, 0, INT_MAX),
    integer_option('encode_sparse_array', 'sparse_safe', 3, safe, 0, INT_MAX)
end
function cjson.encode_max_depth(...)
  arg_init('encode_max_depth', 1, ...)
  return integer_option('encode_max_depth', 'encode_max_depth', 1, (...), 1, INT_MAX)
end
function cjson.decode_max_depth(...)
  arg_init('decode_max_depth', 1, ...)
  return integer_option('decode_max_depth', 'decode_max_depth', 1, (...), 1, INT_MAX)
end
function cjson.encode_number_precision(...)
  arg_init('encode_number_precision', 1, ...)
  return integer_option('encode_number_precision', 'precision', 1, (...), 1, 14)
end
function cjson.encode_keep_buffer(...)
  arg_init('encode_keep_buffer', 1, ...)
  return enum_option('encode_keep_buffer', 'keep_buffer', 1, (...))
end
function cjson.encode_invalid_numbers(...)
  arg_init('encode_invalid_numbers', 1, ...)
  return enum_option('encode_invalid_numbers', 'encode_invalid_numbers', 1, (...), {'off', 'on', 'null'})
end
function cjson.decode_invalid_numbers(...)
  arg_init('decode_invalid_numbers', 1, ...)
  return enum_option('decode_invalid_numbers', 'decode_invalid_numbers', 1, (...))
end
function cjson.new() return cjson end

env.install('cjson', cjson)
