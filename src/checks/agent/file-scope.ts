/**
 * A text check with `file:` (docs/design/checks.md "Checks on an agent's files and actions"): it
 * reads that file of the finished workspace instead of the output. With a glob, every matching
 * file must pass as the check is written (`not-` applies to each file); the score is their mean.
 * A file that is missing or whose text is unknown cannot be judged: the check fails as an error,
 * which `not-` leaves failed.
 */
import { type CheckResult, errored } from '../check-result.js';
import { quote } from '../check-values.js';
import { type FinishedWorkspace, isGlob, normaliseWorkspacePath } from './finished-workspace.js';

type Judge = (text: string) => Promise<CheckResult>;

async function judgeFile(path: string, workspace: FinishedWorkspace, judge: Judge): Promise<CheckResult> {
  const file = await workspace.read(path);
  if (file.state === 'missing') {
    return errored(
      file.deleted
        ? `${path} was deleted by the agent`
        : `${path} does not exist in the workspace the agent left`,
    );
  }
  if (file.state === 'unreadable') return errored(`${path} cannot be read as text: ${file.reason}`);
  const result = await judge(file.text);
  return { ...result, reason: `${path}: ${result.reason}` };
}

export async function judgeWorkspaceFiles(
  pattern: string,
  workspace: FinishedWorkspace,
  judge: Judge,
): Promise<CheckResult> {
  if (!isGlob(pattern)) return judgeFile(normaliseWorkspacePath(pattern), workspace, judge);
  const paths = await workspace.match(pattern);
  if (paths.length === 0) return errored(`no file of the workspace the agent left matches ${quote(pattern)}`);
  const results: CheckResult[] = [];
  for (const path of paths) results.push(await judgeFile(path, workspace, judge));
  const failing = results.filter((result) => !result.pass);
  const score = results.reduce((sum, result) => sum + result.score, 0) / results.length;
  const reason =
    failing.length === 0
      ? `all ${paths.length} files matching ${quote(pattern)} pass`
      : `${failing.length} of ${paths.length} files matching ${quote(pattern)} fail: ${failing
          .slice(0, 3)
          .map((result) => result.reason)
          .join('; ')}${failing.length > 3 ? '; …' : ''}`;
  return {
    pass: failing.length === 0,
    score,
    reason,
    ...(results.some((result) => result.error) ? { error: true } : {}),
  };
}
