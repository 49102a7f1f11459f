import { LuaType } from 'wasmoon';
import { array, bulk, error, integer, nil, status, type Reply } from '../reply';
import type { LuaVm } from './luaVm';
import { luaInteger } from './luaApi';

/**
 * Conversions between RESP2 replies and Lua values, following Redis 7.0
 * (script_lua.c: redisProtocolToLuaType and luaReplyToRedisReply).
 */

const EXACT_DOUBLE_LIMIT = 2n ** 53n;
const INT64_MIN = -9223372036854775808n;

/** Deepest table nesting converted before answering Redis's stack-limit error. */
const MAX_REPLY_DEPTH = 1000;

/**
 * Pushes a reply as Lua sees it: nil becomes false, status {ok=...}, error
 * {err=..., ignore_error_stats_update=true}, integer a number, bulk a string, array a table.
 * Called from a C function, which Lua gives LUA_MINSTACK (20) free slots: a scalar needs at
 * most 3, so only each array level makes room for itself and one element.
 */
export function pushReply(vm: LuaVm, L: number, reply: Reply): void {
  const api = vm.api;
  switch (reply.type) {
    case 'status':
      api.createtable(L, 0, 1);
      vm.pushString(L, reply.value);
      vm.setRawField(L, -2, 'ok');
      return;
    case 'error':
      pushErrorTable(vm, L, reply.value);
      return;
    case 'integer':
      // Lua 5.1 holds numbers as doubles; beyond 2^53 push the (rounded) double it would see.
      if (reply.value >= -EXACT_DOUBLE_LIMIT && reply.value <= EXACT_DOUBLE_LIMIT) {
        api.pushinteger(L, reply.value);
      } else {
        api.pushnumber(L, Number(reply.value));
      }
      return;
    case 'bulk':
      if (reply.value === null) api.pushboolean(L, 0);
      else vm.pushString(L, reply.value);
      return;
    case 'array': {
      if (reply.value === null) {
        api.pushboolean(L, 0);
        return;
      }
      api.checkstack(L, 4);
      api.createtable(L, reply.value.length, 0);
      const elements = reply.value;
      for (let i = 0; i < elements.length; i++) {
        pushReply(vm, L, elements[i] as Reply);
        api.rawseti(L, -2, luaInteger(i + 1));
      }
      return;
    }
  }
}

/**
 * Pushes the error table Redis builds for an error reply (luaPushErrorBuff): the code is the
 * first word, or ERR when the text has no space.
 */
export function pushErrorTable(vm: LuaVm, L: number, text: string, fromReply = true): void {
  const space = text.indexOf(' ');
  const code = space < 0 ? 'ERR' : text.slice(0, space);
  const message = (space < 0 ? text : text.slice(space + 1)).replace(/^[\r\n]+|[\r\n]+$/g, '');
  vm.api.createtable(L, 0, 2);
  vm.pushString(L, `${code} ${message}`);
  vm.setRawField(L, -2, 'err');
  if (!fromReply) return;
  // Redis marks errors that came from a command so they are not counted twice in its stats.
  vm.api.pushboolean(L, 1);
  vm.setRawField(L, -2, 'ignore_error_stats_update');
}

/** Converts the Lua value at `index` into the reply Redis would send for it. */
export function readReply(vm: LuaVm, L: number, index: number, depth = 0): Reply {
  const api = vm.api;
  const at = index > 0 ? index : api.absindex(L, index);
  switch (api.type(L, at)) {
    case LuaType.Boolean:
      return api.toboolean(L, at) ? integer(1) : nil;
    case LuaType.Number:
      return integer(luaNumberToInteger(api.tonumberx(L, at, 0)));
    case LuaType.String:
      return bulk(vm.toString(L, at));
    case LuaType.Table:
      if (depth >= MAX_REPLY_DEPTH) return error('ERR reached lua stack limit');
      api.checkstack(L, 4);
      return readTable(vm, L, at, depth);
    default:
      return nil;
  }
}

/** Tables: {err=...}, {ok=...}, the RESP3-style {double=...}/{map=...}/{set=...}, or an array. */
function readTable(vm: LuaVm, L: number, at: number, depth: number): Reply {
  const api = vm.api;
  const stringField = (key: string): string | null => {
    const type = vm.rawField(L, at, key);
    const value = type === LuaType.String ? vm.toString(L, -1) : null;
    api.settop(L, -2);
    return value;
  };
  const err = stringField('err');
  if (err !== null) return error(withoutNewlines(err));
  const ok = stringField('ok');
  if (ok !== null) return status(withoutNewlines(ok));
  if (vm.rawField(L, at, 'double') === LuaType.Number) {
    const value = api.tonumberx(L, -1, 0);
    api.settop(L, -2);
    return bulk(formatG(value, 17));
  }
  api.settop(L, -2);
  const bigNumber = stringField('big_number');
  if (bigNumber !== null) return bulk(bigNumber);
  for (const kind of ['map', 'set'] as const) {
    if (vm.rawField(L, at, kind) === LuaType.Table) {
      const elements = readPairs(vm, L, api.absindex(L, -1), depth, kind === 'map');
      api.settop(L, -2);
      return array(elements);
    }
    api.settop(L, -2);
  }
  const elements: Reply[] = [];
  for (let i = 1; ; i++) {
    if (api.rawgeti(L, at, luaInteger(i)) === LuaType.Nil) {
      api.settop(L, -2);
      break;
    }
    elements.push(readReply(vm, L, -1, depth + 1));
    api.settop(L, -2);
  }
  return array(elements);
}

/** A map's keys and values (or a set's keys), in Lua's iteration order. */
function readPairs(vm: LuaVm, L: number, table: number, depth: number, withValues: boolean): Reply[] {
  const api = vm.api;
  const elements: Reply[] = [];
  api.pushnil(L);
  while (api.next(L, table) !== 0) {
    elements.push(readReply(vm, L, -2, depth + 1));
    if (withValues) elements.push(readReply(vm, L, -1, depth + 1));
    api.settop(L, -2);
  }
  return elements;
}

/** Redis casts a Lua number to long long: truncation, and INT64_MIN where C's cast overflows. */
export function luaNumberToInteger(value: number): bigint {
  if (Number.isNaN(value) || value >= 9223372036854775808 || value < -9223372036854775808) {
    return INT64_MIN;
  }
  return BigInt(Math.trunc(value));
}

/**
 * C's printf("%.<precision>g"): Redis formats doubles with %.17g, Lua 5.1 prints numbers
 * with %.14g.
 */
export function formatG(value: number, precision: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa = '', exponentText = '0'] = value.toExponential(precision - 1).split('e');
  const exponent = Number(exponentText);
  const trim = (digits: string) => (digits.includes('.') ? digits.replace(/0+$/, '').replace(/\.$/, '') : digits);
  if (exponent < -4 || exponent >= precision) {
    const sign = exponent < 0 ? '-' : '+';
    return `${trim(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return trim(value.toFixed(precision - 1 - exponent));
}

/** Redis replaces CR and LF in status and error replies with spaces. */
function withoutNewlines(text: string): string {
  return text.replace(/[\r\n]/g, ' ');
}

/** What converting one reply element into Lua costs, in bytes of the script budget. */
const ELEMENT_WEIGHT_BYTES = 64;

/** The work of turning a reply into Lua values, as bytes charged to the script's budget. */
export function replyWeightBytes(reply: Reply): number {
  if (reply.type === 'bulk') return ELEMENT_WEIGHT_BYTES + (reply.value?.length ?? 0);
  if (reply.type !== 'array' || reply.value === null) return ELEMENT_WEIGHT_BYTES;
  let bytes = ELEMENT_WEIGHT_BYTES;
  for (const element of reply.value) bytes += replyWeightBytes(element);
  return bytes;
}
