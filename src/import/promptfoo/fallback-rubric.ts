/**
 * The rubric an import writes only when none of the config's assertions could be imported:
 * without a check, an expectation or a rubric there is nothing to score, and the experiment
 * would not validate. Its criteria are deliberately general; the notes tell the user to make
 * them specific to the task.
 */

export function renderFallbackRubric(name: string, description: string): string {
  return `# Rubric: ${name}

${description}. This rubric was written by \`autoresearch init --from\` because none of the
promptfoo assertions could be imported. Its criteria are general: rewrite them to say what a
good output looks like for this task (one \`###\` heading per criterion, a 1–5 table each).

## Criteria

### Task fulfilment
weight: 1

What it measures: does the output do what the prompt asks, for this case's inputs, completely?

| Score | Meaning | Example |
|---|---|---|
| 1 | Does something else, or refuses without reason. | Asked for a summary, it answers a different question. |
| 2 | Attempts the task but misses most of it. | Covers one of the three things the prompt asks for. |
| 3 | Does the task with a clear gap. | A complete answer that ignores the stated audience. |
| 4 | Does the task fully; a detail is off. | Everything asked for, slightly over the requested length. |
| 5 | Does exactly what was asked, for exactly this case. | Every requirement met, using the case's own details. |

### Accuracy
weight: 1

What it measures: is everything the output states true and consistent with the case's inputs?

| Score | Meaning | Example |
|---|---|---|
| 1 | A central statement is false or invented. | Cites a figure that appears nowhere in the input. |
| 2 | Several errors a reader would act on. | Gets two names or dates from the input wrong. |
| 3 | Correct overall, one notable error. | One wrong number in an otherwise faithful answer. |
| 4 | Correct; one claim is vaguer than the input supports. | "Most" where the input says "two of three". |
| 5 | Correct and precise throughout. | Every fact traceable to the input or plainly common knowledge. |

### Clarity
weight: 1

What it measures: can the intended reader understand and use the output on first reading?

| Score | Meaning | Example |
|---|---|---|
| 1 | Confusing or unreadable. | A wall of text with no clear point. |
| 2 | The point is there but hard to find. | The answer comes after a long preamble. |
| 3 | Understandable with some effort. | Clear content, awkward order. |
| 4 | Clear; could be tighter. | Well ordered, one redundant paragraph. |
| 5 | Effortless to read and act on. | Short, ordered, every sentence needed. |
`;
}
