import { describe, expect, it } from 'vitest';
import { AutoresearchError, EXIT, ValidationError } from '../../src/errors.js';

describe('errors', () => {
  it('maps codes to exit codes', () => {
    expect(new AutoresearchError('E_VALIDATION', 'x').exitCode).toBe(EXIT.usage);
    expect(new AutoresearchError('E_AUTH', 'x').exitCode).toBe(EXIT.failure);
    expect(new AutoresearchError('E_INTERRUPTED', 'x').exitCode).toBe(EXIT.interrupted);
  });

  it('counts only errors in a validation summary', () => {
    const error = new ValidationError([
      { severity: 'error', location: { file: 'a.yaml', line: 1 }, keyPath: 'name', message: 'bad' },
      { severity: 'warning', location: { file: 'a.yaml', line: 2 }, keyPath: 'x', message: 'meh' },
    ]);
    expect(error.message).toBe('1 problem found');
    expect(error.problems).toHaveLength(2);
  });
});
