import { describe, expect, it } from 'vitest';
import { loadCases } from '../../../src/experiment/cases/load-cases.js';
import { validatePrompt } from '../../../src/experiment/validate-prompt.js';

/** A path prompt: one template, the prompt file. */
function validateOne(
  file: string,
  text: string,
  casesFile: string,
  cases: Parameters<typeof validatePrompt>[2],
) {
  return validatePrompt([{ name: 'prompt', file, text }], casesFile, cases);
}

const CASES = `- id: a
  vars: { topic: x, audience: y }
- id: b
  vars: { topic: x }
- id: c
  vars: { topic: x, audience: y, extra: z }
`;
const { cases } = loadCases('/c.yaml', CASES);

describe('validatePrompt', () => {
  it('accepts a prompt whose placeholders every case fills', () => {
    expect(validateOne('/p.md', 'About {{topic}} for {{audience}}.', '/c.yaml', cases.slice(0, 1))).toEqual(
      [],
    );
  });

  it('names the case and placeholder without a value, at the case', () => {
    const problems = validateOne('/p.md', '{{topic}} for {{ audience }}', '/c.yaml', cases);
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors).toEqual([
      expect.objectContaining({
        keyPath: '[1].vars',
        message: 'case `b` has no value for {{audience}}',
        location: { file: '/c.yaml', line: 4, col: 3 },
      }),
    ]);
  });

  it('reports a placeholder no case fills once, at the prompt line', () => {
    const problems = validateOne('/p.md', 'Intro\n\n{{tone}} and {{topic}}', '/c.yaml', cases);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([
      expect.objectContaining({
        message: '{{tone}} has no value in any of the 3 cases',
        location: expect.objectContaining({ file: '/p.md', line: 3 }),
      }),
    ]);
  });

  it('warns once per var no placeholder uses', () => {
    const problems = validateOne('/p.md', '{{topic}}', '/c.yaml', cases);
    expect(problems.map((p) => [p.severity, p.keyPath, p.message])).toEqual([
      [
        'warning',
        '[0].vars.audience',
        'var `audience` (in 2 cases) is not used by any placeholder in the prompt',
      ],
      ['warning', '[2].vars.extra', 'var `extra` (in 1 case) is not used by any placeholder in the prompt'],
    ]);
  });

  it('refuses unbalanced keep markers at their line', () => {
    const problems = validateOne('/p.md', '{{topic}}\n<!-- keep -->\nkept\n', '/c.yaml', cases.slice(0, 1));
    expect(problems.find((p) => p.severity === 'error')).toMatchObject({
      location: { file: '/p.md', line: 2 },
    });
  });

  it('warns about double braces that are not placeholders', () => {
    const problems = validateOne(
      '/p.md',
      '{{topic}} {{audience}} {{user-name}}',
      '/c.yaml',
      cases.slice(0, 1),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: '`{{user-name}}` is not a placeholder and is sent as written',
      }),
    ]);
  });

  it('refuses an empty prompt', () => {
    expect(validateOne('/p.md', '  \n', '/c.yaml', [])[0]?.message).toBe('the prompt file is empty');
  });
});
