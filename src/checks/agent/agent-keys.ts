/**
 * The rules of the keys and types that read an agent case (docs/design/checks.md "Checks on an
 * agent's files and actions"), in one place: `file:` scopes a text check to a workspace file,
 * `in: workspace` runs a `command` in the finished workspace, and the workspace and run types
 * (`file-exists`, `turn-count`, `end-reason`, `tool-error-count`) need an agent run. None of them
 * means anything in an experiment without an `agent:` block.
 */
import type { CheckEntry } from '../../experiment/schema.js';
import type { CheckDefinition, CheckIssue } from '../check-definition.js';
import { WORKSPACE } from './workspace-check-key.js';
import { workspacePathProblem } from './workspace-path.js';

export interface CheckScope {
  /** The experiment has an `agent:` block: its cases are agent runs. */
  agent: boolean;
}

const NEEDS_AGENT_HINT =
  'these read an agent case: add an `agent:` block (docs/agents.md), or remove the check';

export function validateAgentKeys(
  entry: CheckEntry,
  definition: CheckDefinition,
  base: string,
  scope: CheckScope,
): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const subject = definition.subject ?? 'text';
  if (!scope.agent && (subject === 'workspace' || subject === 'run')) {
    issues.push({
      keyPath: 'type',
      message: `${entry.type} checks an agent's ${subject}: only in an experiment with an \`agent:\` block`,
      hint: NEEDS_AGENT_HINT,
    });
  }
  if (entry.in !== undefined) {
    if (base !== 'command') {
      issues.push({ keyPath: 'in', message: '`in:` is a key of `command` checks only' });
    } else if (entry.in !== WORKSPACE) {
      issues.push({
        keyPath: 'in',
        message: `\`in:\` must be "${WORKSPACE}" (got "${entry.in}")`,
        hint: 'in: workspace runs the command in a copy of the workspace the agent left; leave it out to run in the experiment folder',
      });
    } else if (!scope.agent) {
      issues.push({
        keyPath: 'in',
        message:
          '`in: workspace` runs a command in an agent case’s workspace: only in an experiment with an `agent:` block',
        hint: NEEDS_AGENT_HINT,
      });
    }
  }
  if (entry.file !== undefined) {
    if (!scope.agent) {
      issues.push({
        keyPath: 'file',
        message: '`file:` checks a file an agent left: only in an experiment with an `agent:` block',
        hint: 'without an agent, a check reads the output; remove `file:`',
      });
    } else if (subject !== 'text' || entry.in === WORKSPACE) {
      issues.push({
        keyPath: 'file',
        message: `${entry.type} does not read a text, so it takes no \`file:\``,
        hint:
          base === 'file-exists'
            ? 'give the path as the value: { type: file-exists, value: RELEASE_NOTES.md }'
            : '`file:` goes on text checks: contains, regex, is-json, word-count, …',
      });
    } else {
      const problem = workspacePathProblem(entry.file);
      if (problem !== undefined) issues.push({ keyPath: 'file', message: problem });
    }
  }
  return issues;
}
