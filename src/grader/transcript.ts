/**
 * `transcript.md` for the grader (docs/design/grader-protocol.md): the case's inputs, the model,
 * and a record of each sample's output. It never holds the prompt under optimization, nor anything
 * about the run.
 */

export interface TranscriptOutput {
  sample: number;
  /** Where the output sits in the grader's folder, e.g. `outputs/output_00.txt`. */
  path: string;
  text: string;
  stopReason?: string;
}

export interface TranscriptInput {
  vars: Readonly<Record<string, string>>;
  /** The generator, e.g. `anthropic / claude-sonnet-4-5`. */
  model: string;
  outputs: readonly TranscriptOutput[];
}

function words(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

function renderValue(value: string): string {
  return value.includes('\n') ? `\n\n  ${value.split('\n').join('\n  ')}\n` : ` ${value}`;
}

export function buildTranscript(input: TranscriptInput): string {
  const lines = ['# Transcript', '', '## Inputs (the case variables given to the model)', ''];
  const names = Object.keys(input.vars).sort();
  if (names.length === 0) lines.push('(none)');
  for (const name of names) lines.push(`- ${name}:${renderValue(input.vars[name] ?? '')}`);
  lines.push('', '## Model', '', input.model, '', '## Outputs', '');
  for (const output of input.outputs) {
    const stop = output.stopReason === undefined ? '' : `, stopped: ${output.stopReason}`;
    lines.push(
      `- sample ${output.sample}: \`${output.path}\` (${words(output.text)} words, ${output.text.length} characters${stop})`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
