/** An agent case's transcript as `transcript.md` (docs/design/agent-runs.md "Transcript"): one section per turn. */
import type { TranscriptEntry } from './agent-run.js';

export function transcriptMarkdown(title: string, entries: readonly TranscriptEntry[]): string {
  const lines: string[] = [`# ${title}`, ''];
  let turn = -1;
  for (const entry of entries) {
    if (entry.turn !== turn) {
      turn = entry.turn;
      lines.push(`## Turn ${turn}`, '');
    }
    if (entry.kind === 'assistant') lines.push(entry.text, '');
    else if (entry.kind === 'tool_call')
      lines.push(`**${entry.tool}** \`${entry.id}\``, '', fenced(JSON.stringify(entry.input, null, 2)), '');
    else if (entry.kind === 'tool_result') {
      const cut = entry.truncated
        ? ` (cut: ${entry.truncated.originalChars - entry.content.length} of ${entry.truncated.originalChars} characters left out)`
        : '';
      lines.push(
        `${entry.isError ? 'Error from' : 'Result of'} \`${entry.id}\`${cut}:`,
        '',
        fenced(entry.content),
        '',
      );
    } else lines.push(`**Error:** ${entry.message}`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A fence longer than any run of backticks inside, so the content cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}
