/**
 * Checks see an output's text alone as `output` and its tool calls apart
 * (docs/design/prompt-shapes.md): `context.tool_calls` in inline and file javascript checks,
 * `AUTORESEARCH_TOOL_CALLS` for commands — each call as `{name, arguments}`, `[]` when there are
 * none.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../src/checks/run-checks.js';
import type { CheckEntry } from '../../../src/experiment/schema.js';
import type { ToolCall } from '../../../src/providers/types.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const calls: ToolCall[] = [
  { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
  { id: 'call_2', name: 'now', arguments: {} },
];
const EXPECTED = JSON.stringify([
  { name: 'get_weather', arguments: { city: 'Paris' } },
  { name: 'now', arguments: {} },
]);

async function judge(entry: CheckEntry, baseDir: string, toolCalls?: ToolCall[]) {
  const [outcome] = await runChecks({
    output: 'Let me check.',
    ...(toolCalls === undefined ? {} : { toolCalls }),
    vars: { city: 'Paris' },
    checks: [entry],
    baseDir,
    env: { PATH: process.env['PATH'] },
  });
  if (outcome === undefined) throw new Error('no outcome');
  return outcome;
}

describe('context.tool_calls', () => {
  const tmp = useTempDir('tool-calls-context-');

  it('reaches an inline javascript check, the output being the text alone', async () => {
    const entry = {
      type: 'javascript',
      value: `output === 'Let me check.' && JSON.stringify(context.tool_calls) === ${JSON.stringify(EXPECTED)} && context.tool_calls[0].arguments.city === vars.city`,
    };
    expect(await judge(entry, tmp(), calls)).toMatchObject({ pass: true });
    expect(
      await judge(
        { type: 'javascript', value: 'Array.isArray(context.tool_calls) && context.tool_calls.length === 0' },
        tmp(),
      ),
    ).toMatchObject({
      pass: true,
    });
  });

  it('reaches a javascript file check', async () => {
    const dir = tmp();
    await writeFile(
      path.join(dir, 'calls.mjs'),
      `export default (output, context) => ({ pass: output === 'Let me check.', score: 1, reason: JSON.stringify(context.tool_calls) });\n`,
    );
    expect(await judge({ type: 'javascript', value: 'file://calls.mjs' }, dir, calls)).toMatchObject({
      pass: true,
      reason: EXPECTED,
    });
    expect(await judge({ type: 'javascript', value: 'file://calls.mjs' }, dir)).toMatchObject({
      reason: '[]',
    });
  });

  it('reaches a command check as AUTORESEARCH_TOOL_CALLS', async () => {
    const entry = {
      type: 'command',
      value: [
        process.execPath,
        '-e',
        'process.stdout.write(JSON.stringify({ pass: true, reason: process.env.AUTORESEARCH_TOOL_CALLS }))',
      ],
    };
    expect(await judge(entry, tmp(), calls)).toMatchObject({ pass: true, reason: EXPECTED });
    expect(await judge(entry, tmp())).toMatchObject({ pass: true, reason: '[]' });
  });
});
