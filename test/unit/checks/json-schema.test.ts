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
