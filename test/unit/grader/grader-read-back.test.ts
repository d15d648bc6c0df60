/**
 * What `autoresearch grade` reads of an agent case's sandbox is what the runner planned, in the
 * order a batch builds its request in (src/grader/grader-batch-calls.ts sorts by path), so the
 * batched answer is the one the grader's call finds.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planGraderFiles } from '../../../src/grader/grader-layout.js';
import { readGraderOutputFiles } from '../../../src/judge/read-text-outputs.js';
import { outputFolderOf } from '../../../src/protocol/output-folder.js';
import { writeSandboxFiles } from '../../../src/sandbox/sandbox.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('grader-read-back-');

describe('an agent case’s grader sandbox read back', () => {
  it('gives every file of the folders, named by path, sorted as the batch sorts them', async () => {
    const sample = (n: number) => ({
      sample: n,
      text: 'unused',
      agent: {
        folder: outputFolderOf(
          `Done ${n}.`,
          [
            { path: 'b/z.md', status: 'created' as const, kind: 'file' as const, size: 2, text: `z${n}` },
            { path: 'a.md', status: 'changed' as const, kind: 'file' as const, size: 2, text: `a${n}` },
          ],
          false,
        ),
        transcript: `# sample ${n}\n`,
      },
    });
    const planned = planGraderFiles({
      expectations: ['x'],
      vars: {},
      model: 'sim',
      outputs: [sample(0), sample(1)],
    });
    await writeSandboxFiles(tmp(), planned);
    const read = await readGraderOutputFiles(join(tmp(), 'outputs'), 'outputs');
    const expected = planned
      .filter((f) => f.path.startsWith('outputs/'))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((f) => ({ file: f.path, text: f.text }));
    expect(read).toEqual(expected);
    expect(read.map((f) => f.file)).toContain('outputs/output_01/files/b/z.md');
  });
});
