// An agent case's transcript as data (transcript.json) goes back to the checks when a resumed
// evaluation reuses the case, and a record without it (written before it existed) is run again.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentCase } from '../../../src/agent/agent-case.js';
import { AGENT_RECORD_FILES } from '../../../src/agent/agent-record.js';
import { runSimAgent } from '../../../src/agent/sim-agent.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('agent-case-transcript-');

describe('an agent case record', () => {
  it("keeps the transcript as data for a resumed case's checks, and runs a case without it again", async () => {
    const dir = tmp();
    const job = {
      agent: 'sim' as const,
      target: {
        place: 'skill' as const,
        name: 'schema-migrations',
        task: '{{query}}',
        git: false,
        limits: { maxTurns: 3, timeoutMs: 10_000 },
      },
      prompt:
        '---\nname: schema-migrations\ndescription: Write schema migrations for database tables.\n---\nWrite it.\n',
      testCase: {
        id: 'orders',
        vars: { query: 'Add a migration for the orders table' },
        checks: [],
        expectations: [],
        split: 'train' as const,
        source: { file: 'cases.yaml' },
      },
      sample: 0,
      sampleIndex: 0,
      recordDir: join(dir, 'record'),
      tmpRoot: join(dir, 'tmp'),
    };
    const deps = { run: runSimAgent, env: {}, isolation: 'process' as const };
    const first = await runAgentCase(job, deps);
    expect(first.entries[0]).toMatchObject({
      kind: 'tool_call',
      tool: 'Skill',
      input: { skill: 'schema-migrations' },
    });
    const again = await runAgentCase(job, deps);
    expect(again).toMatchObject({ reused: true, entries: first.entries });
    await rm(join(job.recordDir, AGENT_RECORD_FILES.entries));
    const rerun = await runAgentCase(job, deps);
    expect(rerun.reused).toBeUndefined();
    expect(rerun.entries).toEqual(first.entries);
  });
});
