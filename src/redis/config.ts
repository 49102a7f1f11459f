import { parseInt64 } from './numbers';
import { globMatch } from './glob';

/**
 * The CONFIG parameters the simulator knows, with Redis 7.0's parsing rules and error texts.
 * Values are kept as Redis would print them back from CONFIG GET.
 */

/** Every maxmemory-policy Redis 7.0 accepts. */
export const POLICIES = [
  'volatile-lru',
  'volatile-lfu',
  'volatile-random',
  'volatile-ttl',
  'allkeys-lru',
  'allkeys-lfu',
  'allkeys-random',
  'noeviction',
] as const;
export type MaxmemoryPolicy = (typeof POLICIES)[number];
export type AppendFsync = 'everysec' | 'always' | 'no';

/** The live settings, typed. */
export interface ConfigValues {
  maxmemory: number;
  'maxmemory-policy': MaxmemoryPolicy;
  'min-replicas-to-write': number;
  'min-replicas-max-lag': number;
  appendonly: boolean;
  appendfsync: AppendFsync;
  'busy-reply-threshold': number;
}

/** Redis's defaults for the settings above. */
export function defaultConfig(): ConfigValues {
  return {
    maxmemory: 0,
    'maxmemory-policy': 'noeviction',
    'min-replicas-to-write': 0,
    'min-replicas-max-lag': 10,
    appendonly: false,
    appendfsync: 'everysec',
    'busy-reply-threshold': 5000,
  };
}

type Parser = (text: string) => { ok: true; value: unknown } | { ok: false; error: string };

interface ParamSpec {
  name: keyof ConfigValues;
  alias?: string;
  parse: Parser;
  print: (value: unknown) => string;
}

const INT_MAX = 2147483647;

function integerIn(lo: number, hi: bigint): Parser {
  return (text) => {
    const value = parseInt64(text);
    if (value === null) return { ok: false, error: "argument couldn't be parsed into an integer" };
    if (value < BigInt(lo) || value > hi)
      return { ok: false, error: `argument must be between ${lo} and ${hi} inclusive` };
    return { ok: true, value: Number(value) };
  };
}

function oneOf(values: readonly string[]): Parser {
  return (text) => {
    const value = values.find((candidate) => candidate === text.toLowerCase());
    if (value === undefined)
      return { ok: false, error: `argument(s) must be one of the following: ${values.join(', ')}` };
    return { ok: true, value };
  };
}

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1000,
  kb: 1024,
  m: 1e6,
  mb: 1024 * 1024,
  g: 1e9,
  gb: 1024 ** 3,
};

/** A memory size as CONFIG SET maxmemory reads it (`100mb`, `1gb`, `1000`), or null when invalid. */
export function parseMemoryBytes(text: string): number | null {
  const result = parseMemory(text);
  return result.ok ? (result.value as number) : null;
}

/** Redis's `memtoull`: digits then an optional unit (k = 1000, kb = 1024, ...). */
function parseMemory(text: string): ReturnType<Parser> {
  const match = /^([0-9]*)(.*)$/.exec(text);
  const digits = match?.[1] ?? '';
  const unit = UNITS[(match?.[2] ?? '').toLowerCase()];
  if (text.startsWith('-') || unit === undefined) return { ok: false, error: 'argument must be a memory value' };
  const value = BigInt(digits === '' ? '0' : digits) * BigInt(unit);
  if (value > 2n ** 63n - 1n) return { ok: false, error: 'argument must be a memory value' };
  return { ok: true, value: Number(value) };
}

const PARAMS: ParamSpec[] = [
  { name: 'maxmemory', parse: parseMemory, print: String },
  { name: 'maxmemory-policy', parse: oneOf(POLICIES), print: String },
  { name: 'min-replicas-to-write', parse: integerIn(0, BigInt(INT_MAX)), print: String },
  { name: 'min-replicas-max-lag', parse: integerIn(0, BigInt(INT_MAX)), print: String },
  {
    name: 'appendonly',
    parse: (text) => {
      const lower = text.toLowerCase();
      if (lower === 'yes' || lower === 'no') return { ok: true, value: lower === 'yes' };
      return { ok: false, error: "argument must be 'yes' or 'no'" };
    },
    print: (value) => (value ? 'yes' : 'no'),
  },
  { name: 'appendfsync', parse: oneOf(['everysec', 'always', 'no']), print: String },
  { name: 'busy-reply-threshold', alias: 'lua-time-limit', parse: integerIn(0, 2n ** 63n - 1n), print: String },
];

function lookupParam(name: string): ParamSpec | undefined {
  const lower = name.toLowerCase();
  return PARAMS.find((param) => param.name === lower || param.alias === lower);
}

/** CONFIG GET: name/value pairs for exact names (echoed as typed) and glob patterns. */
export function configGet(values: ConfigValues, patterns: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (shownName: string, param: ParamSpec): void => {
    if (seen.has(shownName)) return;
    seen.add(shownName);
    out.push(shownName, param.print(values[param.name]));
  };
  for (const pattern of patterns) {
    if (!/[[*?]/.test(pattern)) {
      const param = lookupParam(pattern);
      if (param) add(pattern, param);
      continue;
    }
    for (const param of PARAMS) {
      if (globMatch(pattern.toLowerCase(), param.name)) add(param.name, param);
      if (param.alias && globMatch(pattern.toLowerCase(), param.alias)) add(param.alias, param);
    }
  }
  return out;
}

/** CONFIG SET name value [name value ...]: all or nothing; returns an error text or null. */
export function configSet(values: ConfigValues, pairs: Array<[string, string]>): string | null {
  const chosen: ParamSpec[] = [];
  const namesSeen: string[] = [];
  let unknown: string | null = null;
  let failure: string | null = null;
  for (const [name] of pairs) {
    const param = lookupParam(name);
    if (!param) {
      unknown ??= name;
      continue;
    }
    if (unknown !== null || failure !== null) continue;
    // Redis 7.0 spots a repeated name but not a name repeated through its alias.
    if (namesSeen.includes(name.toLowerCase()))
      failure = `CONFIG SET failed (possibly related to argument '${name}') - duplicate parameter`;
    namesSeen.push(name.toLowerCase());
    chosen.push(param);
  }
  if (unknown !== null) return `Unknown option or number of arguments for CONFIG SET - '${unknown}'`;
  if (failure !== null) return failure;
  const parsed: unknown[] = [];
  for (const [index, [, text]] of pairs.entries()) {
    const param = chosen[index] as ParamSpec;
    const result = param.parse(text);
    if (!result.ok) return `CONFIG SET failed (possibly related to argument '${param.name}') - ${result.error}`;
    parsed.push(result.value);
  }
  chosen.forEach((param, index) => {
    (values as unknown as Record<string, unknown>)[param.name] = parsed[index];
  });
  return null;
}
