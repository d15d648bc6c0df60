/**
 * The agent cases of one candidate's record, read back with the schema they were written with
 * (docs/design/agent-runs.md "One case"), for `show` and the report. A record that does not read
 * is counted, not guessed at.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENT_RECORD_FILES, AgentCaseRecord } from './agent-record.js';

export interface AgentCases {
  records: AgentCaseRecord[];
  /** Case folders whose agent.json is missing or does not match its schema. */
  unreadable: string[];
}

/** The records under `<candidate>/agent/`, in case and sample order; null when there is no such folder. */
export async function readAgentCases(candidateDir: string): Promise<AgentCases | null> {
  const dir = join(candidateDir, 'agent');
  const names = await readdir(dir).catch(() => null);
  if (names === null) return null;
  const records: AgentCaseRecord[] = [];
  const unreadable: string[] = [];
  for (const name of names.sort()) {
    const parsed = await readFile(join(dir, name, AGENT_RECORD_FILES.record), 'utf8')
      .then((text) => AgentCaseRecord.safeParse(JSON.parse(text)))
      .catch(() => undefined);
    if (parsed?.success) records.push(parsed.data);
    else unreadable.push(name);
  }
  records.sort((a, b) => (a.caseId === b.caseId ? a.sample - b.sample : a.caseId < b.caseId ? -1 : 1));
  return { records, unreadable };
}
