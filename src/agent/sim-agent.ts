/**
 * The simulated agent of `--provider sim` (docs/sim.md "Agent"): it does what a coding agent does
 * with a skill or instructions, through general rules and the simulated model's odds. It reads
 * the instructions an agent would load (an appended system prompt, CLAUDE.md / AGENTS.md, agent
 * definitions), uses each skill whose listing fits the task (sim-skill-choice.ts: a `Skill` call,
 * as Claude Code makes, and then the skill's SKILL.md counts among its instructions), then reads
 * the workspace's other text files, asks the simulated
 * generator for the answer, and writes it to each file the instructions or the task tell it to
 * (each such rule obeyed with the simulated model's probability). Without a file to write, the
 * answer is its final message. Deterministic for (model, instructions, task, files, sample).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, isAbsolute } from 'node:path';
import { parseInstructions, obeyProbability } from '../providers/sim/instructions.js';
import { createRng, seedFrom } from '../providers/sim/prng.js';
import { DEFAULT_SIM_MODEL, simulateCompletion } from '../providers/sim/simulate.js';
import type { AgentRunResult, RunAgent, TranscriptEntry } from './agent-run.js';
import { snapshotFolder } from './folder-snapshot.js';
import { chooseSkill, readSkillListing } from './sim-skill-choice.js';

/** What the simulated agent reads of the workspace's other files, at most. */
const READ_FILES = 40;
const READ_CHARS = 8000;

const INSTRUCTION_FILES = [/^CLAUDE\.md$/, /^AGENTS\.md$/, /^\.claude\/agents\/[^/]+\.md$/];
const SKILL_FILE = /^\.(?:claude|agents)\/skills\/([^/]+)\/SKILL\.md$/;

export const runSimAgent: RunAgent = async (request, context) => {
  const started = Date.now();
  const transcript: TranscriptEntry[] = [];
  const snapshot = await snapshotFolder(request.workspace);
  const paths = [...snapshot.entries].filter(([, e]) => e.kind === 'file').map(([p]) => p);
  const instructionPaths = paths.filter((p) => INSTRUCTION_FILES.some((re) => re.test(p)));
  const skillPaths = paths.filter((p) => SKILL_FILE.test(p));
  const read = (p: string) => readFile(join(request.workspace, p), 'utf8');
  const skills = await Promise.all(
    skillPaths.map(async (path) => ({ name: SKILL_FILE.exec(path)?.[1] ?? '', text: await read(path) })),
  );
  const used = skills.filter(
    (skill) => chooseSkill(readSkillListing(skill.name, skill.text), request.task).use,
  );
  const instructions = [
    request.appendSystemPrompt ?? '',
    ...(await Promise.all(instructionPaths.map(read))),
    ...used.map((skill) => skill.text),
  ]
    .filter((t) => t.trim() !== '')
    .join('\n\n');
  let turns = 0;
  let callId = 0;
  const limitReached = () => turns >= request.limits.maxTurns;
  const finish = (endReason: AgentRunResult['endReason'], finalMessage: string): AgentRunResult => {
    const input = Math.ceil((instructions.length + request.task.length) / 4);
    const output = Math.ceil(finalMessage.length / 4);
    context.onModelCall?.({
      model: request.model ?? DEFAULT_SIM_MODEL,
      ok: true,
      inputTokens: input,
      outputTokens: output,
      costUsd: 0,
      cached: false,
      attempts: 1,
      latencyMs: 0,
    });
    return {
      endReason,
      finalMessage,
      transcript,
      turns,
      durationMs: Date.now() - started,
      usage: { inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0 },
      reportedCostUsd: 0,
    };
  };
  const tool = (name: string, input: unknown, result: string) => {
    turns++;
    const id = `sim_${++callId}`;
    transcript.push({ kind: 'tool_call', turn: turns, id, tool: name, input });
    transcript.push({ kind: 'tool_result', turn: turns, id, isError: false, content: result });
  };

  for (const skill of used) {
    if (limitReached()) return finish('max_turns', '');
    tool('Skill', { skill: skill.name }, `Launching skill: ${skill.name}`);
  }
  const documents: string[] = [];
  const others = paths.filter((p) => !instructionPaths.includes(p) && !skillPaths.includes(p));
  for (const path of others.slice(0, READ_FILES)) {
    if (limitReached()) return finish('max_turns', '');
    const text = (await readFile(join(request.workspace, path), 'utf8')).slice(0, READ_CHARS);
    if (text.includes('\0')) continue;
    tool('Read', { file_path: path }, text);
    documents.push(`${path}:\n${text}`);
  }
  if (limitReached()) return finish('max_turns', '');
  const answer = simulateCompletion({
    model: request.model ?? DEFAULT_SIM_MODEL,
    system: instructions,
    messages: [{ role: 'user', content: [request.task, ...documents].join('\n\n') }],
    sampleIndex: context.sampleIndex,
  }).text;

  const rng = createRng(
    seedFrom(
      'sim-agent',
      request.model ?? DEFAULT_SIM_MODEL,
      instructions,
      request.task,
      context.sampleIndex,
    ),
  );
  const written: string[] = [];
  for (const rule of parseInstructions(`${instructions}\n\n${request.task}`).files) {
    const path = normalize(rule.value);
    if (isAbsolute(path) || path.startsWith('..') || written.includes(path)) continue;
    if (!rng.fork(`file:${path}`).chance(obeyProbability(rule))) continue;
    if (limitReached()) return finish('max_turns', '');
    const file = join(request.workspace, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${answer}\n`);
    tool('Write', { file_path: path, content: answer }, `Wrote ${answer.length} characters to ${path}`);
    written.push(path);
  }
  turns++;
  const message = written.length > 0 ? `Done: I wrote ${written.join(', ')}.` : answer;
  transcript.push({ kind: 'assistant', turn: turns, text: message });
  return finish('done', message);
};
