import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveProgramArgv } from '../../../src/sandbox/resolve-program-argv.js';

describe('resolveProgramArgv', () => {
  it('anchors relative paths at the project root and leaves names and flags alone', () => {
    const exists = (path: string) => path === resolve('/proj', 'judges/j.mjs');
    expect(
      resolveProgramArgv(
        ['node', 'judges/j.mjs', './x.py', '--flag', 'plain', 'not/there', '/abs/y'],
        '/proj',
        exists,
      ),
    ).toEqual([
      'node',
      resolve('/proj/judges/j.mjs'),
      resolve('/proj/x.py'),
      '--flag',
      'plain',
      'not/there',
      '/abs/y',
    ]);
  });
});
