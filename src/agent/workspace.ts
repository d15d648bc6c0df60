/**
 * One agent case's workspace (docs/design/agent-runs.md "One case"): a new folder holding the
 * shared fixtures, then the case's own, then the optimised file where the agent reads it; with
 * `git`, a repository whose one commit is that starting state. What it starts with is recorded
 * (`snapshotFolder`) so the capture can tell what the agent did.
 */
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { simpleGit } from 'simple-git';
import type { AgentPlace } from '../experiment/schema.js';
import type { AgentKind } from './agent-run.js';
import type { AgentTarget } from './agent-target.js';
import { type FolderSnapshot, snapshotFolder } from './folder-snapshot.js';

export interface PreparedWorkspace {
  dir: string;
  /** The workspace as the agent found it. */
  start: FolderSnapshot;
  /** For `place: system`: the text to append to the agent's system prompt. */
  appendSystemPrompt?: string;
}

export interface WorkspaceRequest {
  /** A folder to create the workspace in (the run's temporary folder). */
  parent: string;
  agent: AgentKind;
  target: AgentTarget;
  /** The optimised file's text, its case's `{{vars}}` filled. */
  artifact: string;
  caseFixtures?: string;
}

/** Where the optimised file goes for each agent (undefined: it is not a file, `place: system`). */
export function placedPath(
  place: AgentPlace,
  agent: AgentKind,
  name: string | undefined,
): string | undefined {
  const skills = agent === 'codex' ? '.agents/skills' : '.claude/skills';
  switch (place) {
    case 'skill':
      return `${skills}/${name ?? 'skill'}/SKILL.md`;
    case 'instructions':
      return agent === 'codex' ? 'AGENTS.md' : 'CLAUDE.md';
    case 'agent':
      return `.claude/agents/${name ?? 'agent'}.md`;
    case 'system':
      return undefined;
  }
}

export async function prepareWorkspace(request: WorkspaceRequest): Promise<PreparedWorkspace> {
  const { target } = request;
  await mkdir(request.parent, { recursive: true });
  const dir = await mkdtemp(join(request.parent, 'workspace-'));
  // Links are copied as links: inside the sandbox they lead where they lead, never to the host.
  const copy = (from: string, to: string) =>
    cp(from, to, { recursive: true, force: true, verbatimSymlinks: true, errorOnExist: false });
  if (target.fixtures !== undefined) await copy(target.fixtures, dir);
  if (request.caseFixtures !== undefined) await copy(request.caseFixtures, dir);
  const path = placedPath(target.place, request.agent, target.name);
  if (path !== undefined) {
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    if (target.files !== undefined) await copy(target.files, dirname(file));
    await writeFile(file, request.artifact);
  }
  if (target.git) await commitStart(dir);
  return {
    dir,
    start: await snapshotFolder(dir),
    ...(path === undefined ? { appendSystemPrompt: request.artifact } : {}),
  };
}

/** The starting state as one commit, by a fixed author, so an agent that reads the log sees the same every time. */
async function commitStart(dir: string): Promise<void> {
  const git = simpleGit({
    baseDir: dir,
    config: ['user.name=autoresearch', 'user.email=workspace@autoresearch.invalid', 'commit.gpgsign=false'],
  });
  await git.init(['--initial-branch=main', '--quiet']);
  await git.add(['--all']);
  await git.commit('The workspace as the task starts', { '--allow-empty': null, '--quiet': null });
}
