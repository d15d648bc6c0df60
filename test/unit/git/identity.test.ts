import { describe, expect, it } from 'vitest';
import { chooseIdentity, identityConfig } from '../../../src/git/identity.js';

describe('chooseIdentity', () => {
  it('uses the configured identity', () => {
    expect(chooseIdentity({ name: 'Ada', email: 'ada@example.com' })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      source: 'config',
    });
  });

  it('falls back to autoresearch <autoresearch@localhost>, field by field, blank counting as unset', () => {
    expect(chooseIdentity({})).toEqual({
      name: 'autoresearch',
      email: 'autoresearch@localhost',
      source: 'fallback',
    });
    expect(chooseIdentity({ name: 'Ada', email: '  ' })).toEqual({
      name: 'Ada',
      email: 'autoresearch@localhost',
      source: 'mixed',
    });
  });

  it('turns an identity into per-call config settings', () => {
    expect(identityConfig({ name: 'A B', email: 'a@b', source: 'config' })).toEqual([
      'user.name=A B',
      'user.email=a@b',
    ]);
  });
});
