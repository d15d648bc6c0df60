/** What `validate` says of the agent keys and types (src/checks/agent/agent-keys.ts), with and without an agent. */
import { describe, expect, it } from 'vitest';
import { checkName, validateCheckEntry } from '../../../../src/checks/registry.js';
import type { CheckEntry } from '../../../../src/experiment/schema.js';

const agent = { agent: true };
const issues = (entry: CheckEntry, scope = agent) =>
  validateCheckEntry(entry, scope).map((issue) => `${issue.keyPath}: ${issue.message}`);

describe('in an agent experiment', () => {
  it('takes the new keys and types', () => {
    for (const entry of [
      { type: 'contains', value: 'x', file: 'RELEASE_NOTES.md' },
      { type: 'is-json', file: 'out/**/*.json' },
      { type: 'file-exists', value: 'RELEASE_NOTES.md' },
      { type: 'not-file-exists', value: 'notes/todo.md' },
      { type: 'command', value: ['npm', 'test'], in: 'workspace', timeout_s: 300 },
      { type: 'turn-count', min: 1, max: 10 },
      { type: 'end-reason', value: ['done', 'max_turns'] },
      { type: 'tool-error-count', max: 0 },
      { type: 'tool-call', value: 'Bash', arguments: { command: 'npm test' } },
    ])
      expect(issues(entry), entry.type).toEqual([]);
  });

  it('rejects bad values with the key they are at', () => {
    expect(issues({ type: 'contains', value: 'x', file: '../secret' })).toEqual([
      'file: "../secret" is not a file inside the workspace',
    ]);
    expect(issues({ type: 'contains', value: 'x', file: '/etc/passwd' })).toEqual([
      'file: "/etc/passwd" is absolute: give a path relative to the workspace',
    ]);
    expect(issues({ type: 'file-exists', value: 'a.md', file: 'a.md' })).toEqual([
      'file: file-exists does not read a text, so it takes no `file:`',
    ]);
    expect(issues({ type: 'file-exists' })[0]).toMatch(/^value: file-exists needs a workspace path/);
    expect(issues({ type: 'command', value: ['npm', 'test'], in: 'host' })).toEqual([
      'in: `in:` must be "workspace" (got "host")',
    ]);
    expect(issues({ type: 'contains', value: 'x', in: 'workspace' })).toEqual([
      'in: `in:` is a key of `command` checks only',
    ]);
    expect(issues({ type: 'command', value: ['npm', 'test'], in: 'workspace', file: 'a' })).toEqual([
      'file: command does not read a text, so it takes no `file:`',
    ]);
    expect(issues({ type: 'end-reason', value: 'finished' })).toEqual([
      'value: unknown end reason "finished"',
    ]);
    expect(issues({ type: 'turn-count' })).toEqual(['value: turn-count needs min, max, or an exact count']);
    expect(issues({ type: 'tool-error-count', min: 3, max: 1 })).toEqual([
      'min: min (3) is greater than max (1)',
    ]);
  });
});

describe('in a text experiment', () => {
  const text = { agent: false };
  it('rejects each of them with a hint', () => {
    const found = [
      { type: 'contains', value: 'x', file: 'a.md' },
      { type: 'command', value: ['npm', 'test'], in: 'workspace' },
      { type: 'file-exists', value: 'a.md' },
      { type: 'turn-count', max: 3 },
      { type: 'end-reason', value: 'done' },
      { type: 'not-tool-error-count', max: 0 },
    ].map((entry) => validateCheckEntry(entry, text));
    for (const list of found) {
      expect(list).toHaveLength(1);
      expect(list[0]?.message).toMatch(/only in an experiment with an `agent:` block/);
      expect(list[0]?.hint).toBeDefined();
    }
    expect(found.map((list) => list[0]?.keyPath)).toEqual(['file', 'in', 'type', 'type', 'type', 'type']);
    // tool-call reads an API model's calls there, as before.
    expect(validateCheckEntry({ type: 'tool-call', value: 'get_weather' }, text)).toEqual([]);
  });
});

describe('default names', () => {
  it('say which file a check reads and where a command runs', () => {
    expect(checkName({ type: 'contains', value: '## Fixed', file: 'RELEASE_NOTES.md' })).toBe(
      'contains: ## Fixed in RELEASE_NOTES.md',
    );
    expect(checkName({ type: 'is-json', file: 'out/*.json' })).toBe('is-json in out/*.json');
    expect(checkName({ type: 'command', value: ['npm', 'test'], in: 'workspace' })).toBe(
      'command: npm test (in the workspace)',
    );
    expect(checkName({ type: 'not-file-exists', value: 'TODO.md' })).toBe('not-file-exists: TODO.md');
    expect(checkName({ type: 'end-reason', value: ['done', 'max_turns'] })).toBe(
      'end-reason: done, max_turns',
    );
    expect(checkName({ type: 'tool-error-count', max: 0 })).toBe('tool-error-count: <= 0');
  });
});
