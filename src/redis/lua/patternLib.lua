-- Lua 5.1's pattern matching (`string.find`, `match`, `gmatch`/`gfind`, `gsub`),
-- a port of lstrlib.c's matcher written in Lua.
--
-- Why in Lua: the C matcher runs a whole match inside one library call, where the instruction
-- hook never fires, so `string.find(string.rep('a', 700), '.-.-.-b')` (hundreds of millions of
-- backtracking steps) froze the page for most of a minute. Written in Lua, every matching
-- step is a VM instruction, counted against the script's budget like any loop, and a runaway
-- pattern is killed the way a runaway script is. It also gives 5.1's exact behaviour where
-- 5.4 changed it: no `%g` class, `%z`, `%x` in a replacement string meaning `x`, a trailing
-- `%` adding a NUL, `find` with an init past the end, patterns ending at a NUL byte.
--
-- Errors are raised at level 1 from this chunk ("pattern:N: ..."); the sandbox's fixerr moves
-- them to the script's line, as 5.1's luaL_error names it.

local env, native = ...
local type, error, select, tonumber, setmetatable = type, error, select, tonumber, setmetatable
local sbyte, ssub, sfind = string.byte, string.sub, string.find
local tconcat, tunpack = table.concat, table.unpack
local mtype = math.type
local num2str, trunc = env.num2str, env.trunc
local charge = native.charge

local MAXCAPTURES = 32
-- Searches inside C over more bytes than this are charged to the script's budget.
local CHARGE_ABOVE = 4096
local CAP_UNFINISHED, CAP_POSITION = -1, -2
local ESC, LBRACKET, RBRACKET, CARET, DOLLAR = 37, 91, 93, 94, 36
local LPAREN, RPAREN, DOT, DASH, STAR, PLUS, QUESTION = 40, 41, 46, 45, 42, 43, 63

-- The C locale's character classes, as 5.1's isalpha() and friends see bytes: a table of
-- 256 booleans for each class letter, and its complement for the upper-case letter.
local class_sets = {}
local function class_table(letter, test)
  local t, negated = {}, {}
  for c = 0, 255 do
    t[c] = test(c)
    negated[c] = not t[c]
  end
  class_sets[sbyte(letter)] = t
  class_sets[sbyte(letter) - 32] = negated
end
local function isdigit(c) return c >= 48 and c <= 57 end
local function islower(c) return c >= 97 and c <= 122 end
local function isupper(c) return c >= 65 and c <= 90 end
local function isalpha(c) return islower(c) or isupper(c) end
local function isalnum(c) return isalpha(c) or isdigit(c) end
class_table('a', isalpha)
class_table('c', function(c) return c < 32 or c == 127 end)
class_table('d', isdigit)
class_table('l', islower)
class_table('p', function(c) return c >= 33 and c <= 126 and not isalnum(c) end)
class_table('s', function(c) return c == 32 or (c >= 9 and c <= 13) end)
class_table('u', isupper)
class_table('w', isalnum)
class_table('x', function(c) return isdigit(c) or (c >= 97 and c <= 102) or (c >= 65 and c <= 70) end)
class_table('z', function(c) return c == 0 end)
local ANY = {}
for c = 0, 255 do ANY[c] = true end

local function match_class(c, cl)
  local t = class_sets[cl]
  if t == nil then return cl == c end
  return t[c]
end

-- P is the pattern as an array of bytes ending in a 0, as the C code reads a NUL-terminated
-- string; ec is the index of the class's closing bracket.
local function match_bracket_class(P, c, p, ec)
  local sig = true
  if P[p + 1] == CARET then
    sig = false
    p = p + 1
  end
  while true do
    p = p + 1
    if p >= ec then break end
    local pc = P[p]
    if pc == ESC then
      p = p + 1
      if match_class(c, P[p]) then return sig end
    elseif P[p + 1] == DASH and p + 2 < ec then
      p = p + 2
      if P[p - 2] <= c and c <= P[p] then return sig end
    elseif pc == c then
      return sig
    end
  end
  return not sig
end

local function class_end(P, p)
  local c = P[p]
  p = p + 1
  if c == ESC then
    if P[p] == 0 then error("malformed pattern (ends with '%')") end
    return p + 1
  elseif c == LBRACKET then
    if P[p] == CARET then p = p + 1 end
    repeat
      if P[p] == 0 then error("malformed pattern (missing ']')") end
      local cc = P[p]
      p = p + 1
      if cc == ESC and P[p] ~= 0 then p = p + 1 end
    until P[p] == RBRACKET
    return p + 1
  end
  return p
end

local do_match

local function match_balance(ms, s, p)
  local P = ms.P
  if P[p] == 0 or P[p + 1] == 0 then error('unbalanced pattern') end
  local src = ms.src
  if sbyte(src, s) ~= P[p] then return nil end
  local b, e, cont = P[p], P[p + 1], 1
  for i = s + 1, ms.len do
    local c = sbyte(src, i)
    if c == e then
      cont = cont - 1
      if cont == 0 then return i + 1 end
    elseif c == b then
      cont = cont + 1
    end
  end
  return nil
end

-- The bytes one pattern item accepts, as a table, made the first time the item is matched
-- and kept with the compiled pattern. A bracket class fills its table one byte at a time, as
-- bytes are met, so a one-off match does not pay for all 256.
local function item_set(ms, p, ep)
  local P = ms.P
  local pc = P[p]
  local set
  if pc == DOT then
    set = ANY
  elseif pc == ESC then
    set = class_sets[P[p + 1]] or {[P[p + 1]] = true}
  elseif pc == LBRACKET then
    set = setmetatable({}, {__index = function(known, c)
      local v = match_bracket_class(P, c, p, ep - 1)
      known[c] = v
      return v
    end})
  else
    set = {[pc] = true}
  end
  ms.sets[p] = set
  return set
end

local function max_expand(ms, s, p, ep)
  local src, len = ms.src, ms.len
  local set = item_set(ms, p, ep)
  local i = 0
  while s + i <= len and set[sbyte(src, s + i)] do i = i + 1 end
  while i >= 0 do
    local res = do_match(ms, s + i, ep + 1)
    if res then return res end
    i = i - 1
  end
  return nil
end

local function min_expand(ms, s, p, ep)
  local src, len = ms.src, ms.len
  local set = item_set(ms, p, ep)
  while true do
    local res = do_match(ms, s, ep + 1)
    if res then return res end
    if s <= len and set[sbyte(src, s)] then
      s = s + 1
    else
      return nil
    end
  end
end

local function start_capture(ms, s, p, what)
  local level = ms.level
  if level >= MAXCAPTURES then error('too many captures') end
  level = level + 1
  ms.init[level] = s
  ms.clen[level] = what
  ms.level = level
  local res = do_match(ms, s, p)
  if not res then ms.level = ms.level - 1 end
  return res
end

local function end_capture(ms, s, p)
  local l = ms.level
  while l >= 1 and ms.clen[l] ~= CAP_UNFINISHED do l = l - 1 end
  if l < 1 then error('invalid pattern capture') end
  ms.clen[l] = s - ms.init[l]
  local res = do_match(ms, s, p)
  if not res then ms.clen[l] = CAP_UNFINISHED end
  return res
end

local function match_capture(ms, s, digit)
  local l = digit - 48
  if l < 1 or l > ms.level or ms.clen[l] == CAP_UNFINISHED then error('invalid capture index') end
  local len = ms.clen[l]
  -- A position capture has no text: C compares its length as a huge size_t and fails.
  if len < 0 or ms.len - s + 1 < len then return nil end
  local init = ms.init[l]
  if ssub(ms.src, init, init + len - 1) == ssub(ms.src, s, s + len - 1) then return s + len end
  return nil
end

-- 5.1's match(): returns the index just past the match, or nil. The loop stands for C's
-- "goto init" tail calls.
function do_match(ms, s, p)
  local P = ms.P
  while true do
    local pc = P[p]
    local next_pc = P[p + 1]
    if pc == LPAREN then
      if next_pc == RPAREN then return start_capture(ms, s, p + 2, CAP_POSITION) end
      return start_capture(ms, s, p + 1, CAP_UNFINISHED)
    elseif pc == RPAREN then
      return end_capture(ms, s, p + 1)
    elseif pc == 0 then
      return s
    elseif pc == ESC and next_pc == 98 then -- %b
      s = match_balance(ms, s, p + 2)
      if not s then return nil end
      p = p + 4
    elseif pc == ESC and next_pc == 102 then -- %f
      p = p + 2
      if P[p] ~= LBRACKET then error("missing '[' after '%f' in pattern") end
      local ep = class_end(P, p)
      local previous = s == 1 and 0 or sbyte(ms.src, s - 1)
      local current = sbyte(ms.src, s) or 0
      if match_bracket_class(P, previous, p, ep - 1) or not match_bracket_class(P, current, p, ep - 1) then
        return nil
      end
      p = ep
    elseif pc == ESC and next_pc ~= nil and isdigit(next_pc) then
      s = match_capture(ms, s, next_pc)
      if not s then return nil end
      p = p + 2
    elseif pc == DOLLAR and next_pc == 0 then
      if s == ms.len + 1 then return s end
      return nil
    else
      local ep = ms.ends[p]
      if ep == nil then
        ep = class_end(P, p)
        ms.ends[p] = ep
      end
      local set = ms.sets[p] or item_set(ms, p, ep)
      local m = s <= ms.len and set[sbyte(ms.src, s)]
      local epc = P[ep]
      if epc == QUESTION then
        if m then
          local res = do_match(ms, s + 1, ep + 1)
          if res then return res end
        end
        p = ep + 1
      elseif epc == STAR then
        return max_expand(ms, s, p, ep)
      elseif epc == PLUS then
        if not m then return nil end
        return max_expand(ms, s + 1, p, ep)
      elseif epc == DASH then
        return min_expand(ms, s, p, ep)
      else
        if not m then return nil end
        s = s + 1
        p = ep
      end
    end
  end
end

-- The value of capture i (0-based, as C counts), or the whole match when there are none.
local function get_capture(ms, i, s, e)
  if i >= ms.level then
    if i == 0 then return ssub(ms.src, s, e - 1) end
    error('invalid capture index')
  end
  local l = ms.clen[i + 1]
  if l == CAP_UNFINISHED then error('unfinished capture') end
  local init = ms.init[i + 1]
  if l == CAP_POSITION then return init end
  return ssub(ms.src, init, init + l - 1)
end

-- Every capture (the whole match when there are none and s is given), as a list.
local function captures(ms, s, e)
  local n = (ms.level == 0 and s) and 1 or ms.level
  local out = {}
  for i = 1, n do out[i] = get_capture(ms, i - 1, s, e) end
  return out, n
end

-- The pattern as bytes, cut at its first NUL as 5.1 reads it, with the 0 that ends it.
local function pattern_bytes(p, from)
  local P, n = {}, 0
  for i = from, #p do
    local c = sbyte(p, i)
    if c == 0 then break end
    n = n + 1
    P[n] = c
  end
  P[n + 1] = 0
  return P
end

-- Compiled patterns (bytes, where each item ends, the byte sets of its items), kept while one
-- script runs so a loop matching the same pattern pays for it once. They are dropped before
-- the next script (env.reset_patterns), so what a script costs never depends on what ran
-- before it. Only what was worked out without an error is kept, so a malformed pattern fails
-- where 5.1 fails, every time.
local compiled, compiled_count = {}, 0
local COMPILED_MAX = 64
local function compile(p, anchored)
  local key = anchored and '^' .. p or p
  local c = compiled[key]
  if c then return c end
  if compiled_count >= COMPILED_MAX then compiled, compiled_count = {}, 0 end
  c = {P = pattern_bytes(p, anchored and 2 or 1), ends = {}, sets = {}}
  compiled[key] = c
  compiled_count = compiled_count + 1
  return c
end

-- A byte every match must start with (a plain character not allowed to repeat zero times),
-- so a search can jump from one occurrence to the next inside C instead of trying each byte.
local SPECIAL = {}
for c in ('^$*+?.([%-)'):gmatch('.') do SPECIAL[sbyte(c)] = true end
local function first_byte(P)
  local c = P[1]
  if c == 0 or SPECIAL[c] then return nil end
  local q = P[2]
  if q == STAR or q == DASH or q == QUESTION then return nil end
  return string.char(c)
end

-- The text from s on where the next match may start, or nil; long jumps are charged.
local function next_start(src, first, s)
  local k = sfind(src, first, s, true)
  local span = (k or #src) - s
  if span > CHARGE_ABOVE then charge(span) end
  return k
end

local function new_state(s, c)
  return {src = s, len = #s, P = c.P, ends = c.ends, sets = c.sets, level = 0, init = {}, clen = {}}
end

local function typename(v, present)
  if not present then return 'no value' end
  return type(v)
end

-- luaL_checklstring: numbers become strings the way 5.1 prints them.
local function check_string(v, n, fname, present)
  local t = type(v)
  if t == 'string' then return v end
  if t == 'number' then return num2str(v) end
  error('bad argument #' .. n .. " to '" .. fname .. "' (string expected, got " .. typename(v, present) .. ')')
end

-- luaL_optinteger: nil means the default; numeric strings count; floats truncate.
local function opt_integer(v, n, fname, default)
  if v == nil then return default end
  local x = v
  if type(x) ~= 'number' then x = tonumber(x) end
  if x == nil then
    error('bad argument #' .. n .. " to '" .. fname .. "' (number expected, got " .. type(v) .. ')')
  end
  if mtype(x) == 'float' then return trunc(x) end
  return x
end

-- 5.1 looks for these to decide whether find is a plain search.
local function has_specials(p)
  local cut = sfind(p, '\0', 1, true)
  if cut then p = ssub(p, 1, cut - 1) end
  return sfind(p, '[%^%$%*%+%?%.%(%[%%%-]') ~= nil
end

-- A plain search runs inside C; its cost (at most text × needle bytes compared) is charged
-- to the script's budget so a huge one cannot run unbounded.
local function plain_find(s, p, init)
  local span = (#s - init) * (#p > 0 and #p or 1)
  if span > CHARGE_ABOVE then charge(span) end
  return sfind(s, p, init + 1, true)
end

local function find_aux(find, fname, ...)
  local argc = select('#', ...)
  local s, p, init, plain = ...
  s = check_string(s, 1, fname, argc >= 1)
  p = check_string(p, 2, fname, argc >= 2)
  local l1 = #s
  init = opt_integer(init, 3, fname, 1)
  if init < 0 then init = init + l1 + 1 end
  if init < 0 then init = 0 end
  init = init - 1
  if init < 0 then init = 0 elseif init > l1 then init = l1 end
  if find and (plain or not has_specials(p)) then
    return plain_find(s, p, init)
  end
  local anchor = sbyte(p, 1) == CARET
  local ms = new_state(s, compile(p, anchor))
  local first = not anchor and first_byte(ms.P)
  local s1 = init + 1
  repeat
    if first then
      s1 = next_start(s, first, s1)
      if not s1 then return nil end
    end
    ms.level = 0
    local e = do_match(ms, s1, 1)
    if e then
      if find then
        local caps, n = captures(ms, nil, 0)
        return s1, e - 1, tunpack(caps, 1, n)
      end
      local caps, n = captures(ms, s1, e)
      return tunpack(caps, 1, n)
    end
    s1 = s1 + 1
  until s1 > l1 + 1 or anchor
  return nil
end

local lib = {}

function lib.find(...) return find_aux(true, 'find', ...) end
function lib.match(...) return find_aux(false, 'match', ...) end

function lib.gmatch(...)
  local argc = select('#', ...)
  local s, p = ...
  s = check_string(s, 1, 'gmatch', argc >= 1)
  p = check_string(p, 2, 'gmatch', argc >= 2)
  local ms = new_state(s, compile(p, false))
  local first = first_byte(ms.P)
  local start = 1
  return function()
    local src = start
    while src <= ms.len + 1 do
      if first then
        src = next_start(s, first, src)
        if not src then break end
      end
      ms.level = 0
      local e = do_match(ms, src, 1)
      if e then
        start = e == src and e + 1 or e
        local caps, n = captures(ms, src, e)
        return tunpack(caps, 1, n)
      end
      src = src + 1
    end
    start = ms.len + 2
  end
end

-- add_s's reading of a replacement string, as a list of parts: text, or the number of a
-- capture (0 for the whole match). '%' before a non-digit inserts that character, and a
-- trailing '%' the NUL that ends the C string. Kept for one script, like compiled patterns.
local replacements, replacement_count = {}, 0
local function replacement_parts(repl)
  local parts = replacements[repl]
  if parts then return parts end
  parts = {}
  local i, l, from = 1, #repl, 1
  while i <= l do
    if sbyte(repl, i) == ESC then
      if from < i then parts[#parts + 1] = ssub(repl, from, i - 1) end
      i = i + 1
      local d = sbyte(repl, i) or 0
      if isdigit(d) then
        parts[#parts + 1] = d - 48
      else
        parts[#parts + 1] = d == 0 and '\0' or ssub(repl, i, i)
      end
      from = i + 1
    end
    i = i + 1
  end
  if from <= l then parts[#parts + 1] = ssub(repl, from, l) end
  if replacement_count >= COMPILED_MAX then replacements, replacement_count = {}, 0 end
  replacements[repl] = parts
  replacement_count = replacement_count + 1
  return parts
end

local function add_string(ms, out, repl, s, e)
  local parts = replacement_parts(repl)
  for i = 1, #parts do
    local part = parts[i]
    if type(part) == 'string' then
      out[#out + 1] = part
    elseif part == 0 then
      out[#out + 1] = ssub(ms.src, s, e - 1)
    else
      local v = get_capture(ms, part - 1, s, e)
      out[#out + 1] = type(v) == 'number' and num2str(v) or v
    end
  end
end

local function add_value(ms, out, repl, kind, s, e)
  if kind == 'string' then return add_string(ms, out, repl, s, e) end
  local v
  if kind == 'function' then
    local caps, n = captures(ms, s, e)
    v = repl(tunpack(caps, 1, n))
  else
    v = repl[get_capture(ms, 0, s, e)]
  end
  if not v then
    v = ssub(ms.src, s, e - 1)
  elseif type(v) == 'number' then
    v = num2str(v)
  elseif type(v) ~= 'string' then
    error('invalid replacement value (a ' .. type(v) .. ')')
  end
  out[#out + 1] = v
end

function lib.gsub(...)
  local argc = select('#', ...)
  local src, p, repl, max_n = ...
  src = check_string(src, 1, 'gsub', argc >= 1)
  p = check_string(p, 2, 'gsub', argc >= 2)
  local kind = type(repl)
  if kind == 'number' then
    repl, kind = num2str(repl), 'string'
  elseif kind ~= 'string' and kind ~= 'function' and kind ~= 'table' then
    error("bad argument #3 to 'gsub' (string/function/table expected)")
  end
  max_n = opt_integer(max_n, 4, 'gsub', #src + 1)
  local anchor = sbyte(p, 1) == CARET
  local ms = new_state(src, compile(p, anchor))
  local first = not anchor and first_byte(ms.P)
  -- keep: where the text not yet copied to out starts (unmatched text is copied in runs).
  local out, n, s, keep = {}, 0, 1, 1
  while n < max_n do
    if first then
      local k = next_start(src, first, s)
      if not k then break end
      s = k
    end
    ms.level = 0
    local e = do_match(ms, s, 1)
    if e then
      n = n + 1
      if keep < s then out[#out + 1] = ssub(src, keep, s - 1) end
      add_value(ms, out, repl, kind, s, e)
      keep = s
    end
    if e and e > s then
      s = e
      keep = e
    elseif s <= ms.len then
      s = s + 1
    else
      break
    end
    if anchor then break end
  end
  out[#out + 1] = ssub(src, keep)
  return tconcat(out), n
end

lib.gfind = lib.gmatch

function env.reset_patterns()
  if compiled_count > 0 then compiled, compiled_count = {}, 0 end
  if replacement_count > 0 then replacements, replacement_count = {}, 0 end
end

for name, fn in next, lib do env.string[name] = native.wrap(fn) end
