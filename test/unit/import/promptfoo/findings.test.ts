import { describe, expect, it } from 'vitest';
import { summariseUnmapped } from '../../../../src/import/promptfoo/findings.js';

describe('summariseUnmapped', () => {
  it('merges the same subject and reason into one line naming the first places', () => {
    const items = ['tests[0]', 'tests[1]', 'tests[1]', 'tests[2]', 'tests[3]', 'tests[4]', 'tests[5]'].map(
      (where) => ({
        subject: '`metadata` on a test',
        where,
        why: 'no metadata',
      }),
    );
    items.push({ subject: '`env`', where: '', why: 'not copied' });
    expect(summariseUnmapped(items)).toEqual([
      {
        what: '`metadata` on a test (tests[0], tests[1], tests[2], tests[3] and 2 more)',
        why: 'no metadata',
      },
      { what: '`env`', why: 'not copied' },
    ]);
  });
});
