import { describe, expect, it } from 'vitest';
import { compileSchema, readSchema, schemaValidatorFor } from '../../../src/checks/json-schema.js';

describe('JSON schemas', () => {
  it('reads an object, a boolean, or JSON/YAML text', () => {
    expect(readSchema({ type: 'object' })).toEqual({ type: 'object' });
    expect(readSchema(true)).toBe(true);
    expect(readSchema('{"type": "array"}')).toEqual({ type: 'array' });
    expect(readSchema('type: string')).toEqual({ type: 'string' });
    expect(readSchema('[1, 2]')).toBeInstanceOf(Error);
  });

  it('has no validator without a schema', () => {
    expect(schemaValidatorFor(undefined)).toBeUndefined();
    expect(schemaValidatorFor('')).toBeUndefined();
  });

  it('tolerates unknown keywords and formats, as promptfoo does', () => {
    const validate = compileSchema({ type: 'string', format: 'email', example: 'a@b.c' });
    expect(validate).not.toBeInstanceOf(Error);
    if (!(validate instanceof Error)) expect(validate('x', 1000)).toEqual({ valid: true });
  });

  it('keeps two schemas with the same $id apart', () => {
    const a = compileSchema({ $id: 'x', type: 'string' });
    const b = compileSchema({ $id: 'x', type: 'number' });
    if (a instanceof Error || b instanceof Error) throw new Error('both compile');
    expect(a('s', 1000)).toEqual({ valid: true });
    expect(b('s', 1000)).toMatchObject({ valid: false, errors: 'data must be number' });
  });
});

describe('the enum bound', () => {
  const withEnum = (count: number) => ({
    type: 'object',
    properties: {
      tier: { anyOf: [{ type: 'string', enum: Array.from({ length: count }, (_, i) => `v${i}`) }] },
    },
  });

  it('compiles an enum of 1,000 values and refuses one of 1,001, naming its key path', () => {
    const validate = compileSchema(withEnum(1000));
    expect(validate).not.toBeInstanceOf(Error);
    expect((validate as Exclude<typeof validate, Error>)({ tier: 'v999' }, 1000)).toEqual({ valid: true });
    const refused = compileSchema(withEnum(1001));
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe(
      '`properties.tier.anyOf[0].enum` lists 1001 values, more than the 1000 allowed in one enum',
    );
  });
});

describe('a schema written as YAML text', () => {
  it('is read by the experiment loader, so an alias into itself is an error, not a schema ajv never finishes', () => {
    const schema = readSchema('type: object\nproperties: &p\n  x: { properties: *p }\n');
    expect(schema).toBeInstanceOf(Error);
    expect((schema as Error).message).toBe(
      'value is not a JSON schema: alias *p points into the node it names (&p), so it never ends',
    );
  });
});
