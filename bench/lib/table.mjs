/** One table, two renderings: aligned text for the terminal and Markdown for BENCHMARKS.md. */

function cells(rows) {
  return rows.map((row) => row.map((cell) => String(cell)));
}

export function textTable(header, rows) {
  const all = cells([header, ...rows]);
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  const line = (row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(all[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

export function markdownTable(header, rows) {
  const escapePipes = (cell) => cell.replaceAll('|', '\\|');
  const all = cells([header, ...rows]).map((row) => row.map(escapePipes));
  return [
    `| ${all[0].join(' | ')} |`,
    `|${all[0].map(() => '---').join('|')}|`,
    ...all.slice(1).map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}
