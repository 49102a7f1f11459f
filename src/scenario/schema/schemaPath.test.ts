import { describe, expect, it } from 'vitest';
import schemaJson from '../../../lessons/scenario.schema.json';
import { describeType, keysAt, schemaNodesAt, valuesAt, type SchemaNode } from './schemaPath';

const schema = schemaJson as unknown as SchemaNode;

describe('the scenario JSON Schema walker', () => {
  it('lists the top-level keys, required ones marked', () => {
    const keys = keysAt(schema, []);
    expect(keys.map((k) => k.key)).toEqual(
      expect.arrayContaining(['id', 'title', 'clients', 'resource', 'script', 'expect']),
    );
    expect(keys.find((k) => k.key === 'clients')?.required).toBe(true);
    expect(keys.find((k) => k.key === 'seed')?.required).toBe(false);
  });

  it('leaves out keys already written', () => {
    expect(keysAt(schema, [], { id: 'x', title: 'X' }).map((k) => k.key)).not.toContain('id');
  });

  it('walks into list items: a client, a step of its step list', () => {
    expect(keysAt(schema, ['clients', 0]).map((k) => k.key)).toEqual(
      expect.arrayContaining(['recipe', 'ttl', 'steps']),
    );
    expect(keysAt(schema, ['clients', 3, 'steps', 1]).map((k) => k.key)).toEqual(
      expect.arrayContaining(['redis', 'wait', 'read', 'write', 'ifBusy']),
    );
  });

  it("narrows a script step's keys to its do kind", () => {
    const pause = keysAt(schema, ['script', 0], { do: 'pause' }).map((k) => k.key);
    expect(pause).toContain('for');
    expect(pause).not.toContain('by');
    expect(keysAt(schema, ['script', 0], { do: 'clock-jump' }).map((k) => k.key)).toContain('by');
  });

  it('gives the fixed values of enums and constants', () => {
    expect(valuesAt(schema, ['clients', 0, 'recipe'])).toContain('lease-with-token');
    expect(valuesAt(schema, ['script', 0, 'do'])).toEqual(
      expect.arrayContaining(['pause', 'crash', 'partition', 'failover']),
    );
    expect(valuesAt(schema, ['controls', 0])).toContain('toggle-fencing');
    expect(valuesAt(schema, ['expect', 'invariant'])).toContain('single-writer');
    expect(valuesAt(schema, ['expect', 0, 'outcome'])).toEqual(['holds', 'violated']);
  });

  it('finds nothing under a key the schema does not have, and names types in words', () => {
    expect(schemaNodesAt(schema, ['clients', 0, 'nonsense'])).toEqual([]);
    expect(describeType(schemaNodesAt(schema, ['clients', 0, 'ttl']))).toMatch(/duration/);
  });
});
