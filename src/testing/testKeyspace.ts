import { bulk, error, integer, ok, status, type Reply } from '../redis/reply';
import type { ScriptRequest } from '../redis/scriptEngine';

/**
 * A tiny keyspace for the engine's tests (SET, GET, DEL, INCR, PEXPIRE, PING), answering with
 * Redis's texts. It stands in for the server so these tests do not depend on its progress.
 */
export class TestKeyspace {
  readonly values = new Map<string, string>();
  readonly calls: string[][] = [];

  /** The `call` a ScriptRequest needs. */
  readonly call = (argv: string[]): Reply => {
    this.calls.push(argv);
    const [name = '', ...args] = argv;
    switch (name.toLowerCase()) {
      case 'set':
        this.values.set(args[0] ?? '', args[1] ?? '');
        return ok;
      case 'get':
        return bulk(this.values.get(args[0] ?? '') ?? null);
      case 'del':
        return integer(args.filter((key) => this.values.delete(key)).length);
      case 'incr': {
        const current = this.values.get(args[0] ?? '') ?? '0';
        if (!/^-?[1-9]\d*$|^0$/.test(current)) return error('ERR value is not an integer or out of range');
        const next = BigInt(current) + 1n;
        this.values.set(args[0] ?? '', String(next));
        return integer(next);
      }
      case 'pexpire':
        return integer(this.values.has(args[0] ?? '') ? 1 : 0);
      case 'ping':
        return status('PONG');
      case 'mixed':
        return {
          type: 'array',
          value: [integer(1), bulk(null), status('OK'), error('ERR inner'), { type: 'array', value: [bulk('x')] }],
        };
      default:
        return error('ERR Unknown Redis command called from script');
    }
  };

  /** A request for `body` against this keyspace. */
  request(body: string, keys: string[] = [], args: string[] = []): ScriptRequest {
    return { body, sha: 'b6d4c2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5', keys, args, call: this.call };
  }
}
