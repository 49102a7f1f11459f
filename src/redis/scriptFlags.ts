/**
 * Redis 7.0's script shebang: a body starting `#!lua flags=no-writes,allow-oom` declares
 * what the script may do (evalExtractShebangFlags in eval.c). Without a shebang a script runs
 * in compatibility mode: it may write, and write checks happen command by command.
 */
import type { CommandFlags } from './command';

/** The flags a shebang can declare. */
export interface ScriptFlags {
  noWrites: boolean;
  allowOom: boolean;
  allowStale: boolean;
  noCluster: boolean;
  allowCrossSlotKeys: boolean;
}

/** A parsed body: its flags (null in compatibility mode) and the length of the shebang line. */
export type Shebang = { flags: ScriptFlags | null; lineLength: number } | { error: string };

const FLAG_NAMES: Record<string, keyof ScriptFlags> = {
  'no-writes': 'noWrites',
  'allow-oom': 'allowOom',
  'allow-stale': 'allowStale',
  'no-cluster': 'noCluster',
  'allow-cross-slot-keys': 'allowCrossSlotKeys',
};

const COMPAT: Shebang = { flags: null, lineLength: 0 };

/** Reads a body's shebang line, with Redis's error texts (sent as `ERR <error>`). */
export function parseShebang(body: string): Shebang {
  if (!body.startsWith('#!')) return COMPAT;
  const end = body.indexOf('\n');
  if (end < 0) return { error: 'Invalid script shebang' };
  const parts = body
    .slice(0, end)
    .split(/[ \t\r]+/)
    .filter((p) => p !== '');
  if (parts[0] !== '#!lua') return { error: `Unexpected engine in script shebang: ${parts[0] ?? ''}` };
  const flags: ScriptFlags = {
    noWrites: false,
    allowOom: false,
    allowStale: false,
    noCluster: false,
    allowCrossSlotKeys: false,
  };
  for (const part of parts.slice(1)) {
    if (!part.startsWith('flags=')) return { error: `Unknown lua shebang option: ${part}` };
    // sdssplitlen on "," gives no element for an empty list ("flags=") and keeps empty ones.
    const list = part.slice(6);
    if (list === '') continue;
    for (const name of list.split(',')) {
      const key = FLAG_NAMES[name];
      if (key === undefined) return { error: `Unexpected flag in script shebang: ${name}` };
      flags[key] = true;
    }
  }
  return { flags, lineLength: end };
}

/**
 * EVAL's flags for one body (evalGetCommandFlags + scriptFlagsToCmdFlags): a shebang's flags
 * replace EVAL's; a script may write unless `no-writes`, and is refused when over maxmemory
 * unless `allow-oom` or `no-writes`. Bodies without a valid shebang keep EVAL's own flags.
 */
export function scriptCommandFlags(base: CommandFlags, body: string | undefined): CommandFlags {
  if (body === undefined || !body.startsWith('#!')) return base;
  const shebang = parseShebang(body);
  if ('error' in shebang || shebang.flags === null) return base;
  const { noWrites, allowOom } = shebang.flags;
  return { ...base, write: !noWrites, denyoom: !(allowOom || noWrites) };
}
