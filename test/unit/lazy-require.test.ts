import { describe, expect, it } from 'vitest';
import { lazyRequire } from '../../src/lazy-require.js';

describe('lazyRequire', () => {
  it('loads the module on the first call and returns the same one after', () => {
    const path = lazyRequire<typeof import('node:path')>('node:path');
    const first = path();
    expect(first.posix.join('a', 'b')).toBe('a/b');
    expect(path()).toBe(first);
  });

  it('reports a module that cannot be found when it is first used, not before', () => {
    const missing = lazyRequire('autoresearch-no-such-module');
    expect(() => missing()).toThrow(/autoresearch-no-such-module/);
  });
});
