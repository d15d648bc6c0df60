/**
 * An agent run's cases for `show` (docs/design/agent-runs.md): how each case ended, its turns, the
 * files it left and the tools it used, with a line that sums them up.
 */
import type { AgentCases } from '../agent/read-agent-cases.js';
import type { Colors } from './terminal.js';
import { cutVisible } from './fit-text.js';

export function formatAgentCases(title: string, cases: AgentCases, c: Colors, width: number): string {
  const { records } = cases;
  const ends = new Map<string, number>();
  const tools = new Map<string, number>();
  for (const r of records) {
    ends.set(r.endReason, (ends.get(r.endReason) ?? 0) + 1);
    for (const [tool, n] of Object.entries(r.tools)) tools.set(tool, (tools.get(tool) ?? 0) + n);
  }
  const turns = records.length === 0 ? 0 : records.reduce((sum, r) => sum + r.turns, 0) / records.length;
  const lines = [
    `Agent cases (${title}): ${records.length} · ${[...ends].map(([end, n]) => `${end} ${n}`).join(', ')} · ${turns.toFixed(1)} turns on average · tools ${listCounts(tools) || 'none'}`,
  ];
  if (cases.unreadable.length > 0)
    lines.push(
      c.yellow(
        `  ${cases.unreadable.length} case record(s) could not be read: ${cases.unreadable.join(', ')}`,
      ),
    );
  const header = ['CASE', 'SAMPLE', 'END', 'TURNS', 'TOOLS', 'FILES'];
  const rows = records.map((r) => [
    r.caseId,
    String(r.sample),
    r.endReason,
    String(r.turns),
    listCounts(new Map(Object.entries(r.tools))) || '-',
    r.files
      .map((f) => `${f.status === 'created' ? '+' : f.status === 'deleted' ? '-' : '~'}${f.path}`)
      .join(' ') || 'none',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cutVisible(
      cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] as number))).join('  '),
      width,
    );
  lines.push(line(header), ...rows.map((row) => line(row)));
  lines.push(
    "FILES: + created, ~ changed, - deleted. Each case's transcript: agent/<case>.<sample>/transcript.md",
  );
  return lines.join('\n');
}

function listCounts(counts: ReadonlyMap<string, number>): string {
  return [...counts].map(([name, n]) => `${name} ${n}`).join(', ');
}
