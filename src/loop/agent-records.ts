/**
 * The agent records of a candidate's train cases (`agent/<case-id>.<sample>/agent.json`), read for
 * the mutator's digest (src/loop/agent-digest.ts). Only train cases are read: a holdout or test
 * case's record is never opened here, so nothing of it can reach the mutator. A record that is
 * missing or does not parse (a generation the runner could not start) gives no digest.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENT_RECORD_FILES, AgentCaseRecord } from '../agent/agent-record.js';
import { candidatePaths } from '../run/paths.js';
import type { Evaluation } from '../scoring/index.js';
import type { AgentActivity } from './agent-digest.js';

/** Per train case id, each sample's activity (undefined where there is no record). */
export type TrainAgentActivity = ReadonlyMap<string, readonly (AgentActivity | undefined)[]>;

export async function readTrainAgentActivity(
  runDir: string,
  where: { iteration: number; candidate: number },
  evaluation: Pick<Evaluation, 'cases' | 'samples'>,
): Promise<TrainAgentActivity> {
  const paths = candidatePaths(runDir, where.iteration, where.candidate);
  const train = evaluation.cases.filter((c) => c.split === 'train');
  const entries = await Promise.all(
    train.map(async (c) => {
      const samples = Array.from({ length: evaluation.samples }, (_, sample) =>
        readActivity(join(paths.agent(c.id, sample), AGENT_RECORD_FILES.record)),
      );
      return [c.id, await Promise.all(samples)] as const;
    }),
  );
  return new Map(entries);
}

async function readActivity(file: string): Promise<AgentActivity | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = AgentCaseRecord.safeParse(JSON.parse(text));
    if (!parsed.success) return undefined;
    const { sample, endReason, error, turns, tools, calls, callsOmitted, files, truncated } = parsed.data;
    return {
      sample,
      endReason,
      ...(error === undefined ? {} : { error }),
      turns,
      tools,
      ...(calls === undefined ? {} : { calls }),
      ...(callsOmitted === undefined ? {} : { callsOmitted }),
      files,
      truncated,
    };
  } catch {
    return undefined;
  }
}
