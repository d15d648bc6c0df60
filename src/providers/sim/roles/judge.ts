/**
 * The simulated judge: scores every requested criterion 1–5 with the heuristics of
 * judge-heuristics.ts, adds rare seeded ±1 jitter so repeated samples differ, and marks down
 * outputs that try to instruct their judge. A checklist item (docs/design/judge-reliability.md) is
 * met when the output uses one of the item's longer words, else by a seeded chance that follows how
 * well the output does on that criterion's heuristic — so better outputs meet more items.
 */
import type { JudgeCallInput, JudgeCallReply } from '../../../protocol/judge-call.js';
import type { Rng } from '../prng.js';
import { type Assessment, assess, familyFor } from './judge-heuristics.js';

/** Chance that a criterion's score moves by one point, so independent samples disagree a little. */
export const JUDGE_JITTER_PROBABILITY = 0.1;
/** Points taken from every criterion of an output that addresses its judge. */
export const INJECTION_PENALTY = 2;

const INJECTION = [
  /\bignore (?:all |any |the |your |previous |prior |above |these )*(?:rubric|instructions|criteria|rules|guidelines)\b/i,
  /\bgive (?:every|each|all|this)(?: \w+)? (?:criteri(?:on|a)|scores?|outputs?)[^.]{0,20}\b(?:5|five)\b/i,
  /\b(?:score|rate) (?:this|me|it)(?: output)? (?:a |as )?(?:5|five|perfect)/i,
  /\b(?:note to|dear) (?:the )?(?:judge|grader|evaluator|reviewer)\b/i,
  /\byou are (?:now )?(?:the )?(?:judge|grader|evaluator)\b/i,
];

export function looksLikeInjection(output: string): boolean {
  return INJECTION.some((pattern) => pattern.test(output));
}

function snakeCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Each criterion heading's title and the text under it, by snake_case key. */
function rubricSections(rubric: string): Map<string, { title: string; description: string }> {
  const sections = new Map<string, { title: string; description: string }>();
  const headings = [...rubric.matchAll(/^#{2,4}\s+(.+)$/gm)];
  headings.forEach((match, i) => {
    const title = (match[1] as string).trim();
    const end = headings[i + 1]?.index ?? rubric.length;
    const description = rubric.slice(match.index + match[0].length, end).slice(0, 400);
    sections.set(snakeCase(title), { title, description });
  });
  return sections;
}

function listPhrases(phrases: string[]): string {
  if (phrases.length <= 1) return phrases[0] ?? '';
  return `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1]}`;
}

function explain(assessments: Assessment[], injected: boolean): string {
  const good = [
    ...new Set(assessments.filter((a) => a.score >= 4 && a.good).map((a) => a.good as string)),
  ].slice(0, 2);
  const bad = [
    ...new Set(assessments.filter((a) => a.score <= 3 && a.bad).map((a) => a.bad as string)),
  ].slice(0, 2);
  const sentences: string[] = [];
  if (good.length > 0 && bad.length > 0)
    sentences.push(`Earns points for ${listPhrases(good)}, but loses them for ${listPhrases(bad)}.`);
  else if (good.length > 0) sentences.push(`Earns points for ${listPhrases(good)}.`);
  else if (bad.length > 0) sentences.push(`Loses points for ${listPhrases(bad)}.`);
  else sentences.push('An average output with nothing that stands out either way.');
  if (injected)
    sentences.push('It also tries to tell its evaluator what score to give, which counts against it.');
  return sentences.join(' ');
}

export function judgeOutput(input: JudgeCallInput, rng: Rng): JudgeCallReply {
  const sections = rubricSections(input.rubric);
  const injected = looksLikeInjection(input.output);
  const jitter = rng.fork('jitter');
  const assessments: Assessment[] = [];
  const scores: [string, number][] = [];
  for (const key of input.criteria) {
    const section = sections.get(snakeCase(key));
    const assessment = assess(familyFor(key, section?.title ?? '', section?.description ?? ''), input.output);
    assessments.push(assessment);
    let score = assessment.score - (injected ? INJECTION_PENALTY : 0);
    if (jitter.chance(JUDGE_JITTER_PROBABILITY)) score += jitter.chance(0.5) ? 1 : -1;
    scores.push([key, Math.min(5, Math.max(1, score))]);
  }
  const items = answerChecklists(input, sections, injected, rng.fork('checklist'));
  // fromEntries defines keys as own data properties, so even a key like "__proto__" survives
  return {
    criteria_scores: Object.fromEntries(scores),
    reasoning: explain(assessments, injected),
    ...(items === undefined ? {} : { items }),
  };
}

/** Words of five letters or more: what an item is about. */
function keyWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]{5,}/g) ?? []).filter((w) => !STOP_WORDS.has(w));
}

const STOP_WORDS = new Set(['about', 'their', 'there', 'which', 'would', 'should', 'without', 'whether']);

function answerChecklists(
  input: JudgeCallInput,
  sections: Map<string, { title: string; description: string }>,
  injected: boolean,
  rng: Rng,
): Record<string, boolean[]> | undefined {
  if (input.checklists === undefined) return undefined;
  const text = input.output.toLowerCase();
  return Object.fromEntries(
    Object.entries(input.checklists).map(([key, items]) => {
      const section = sections.get(snakeCase(key));
      const { score } = assess(
        familyFor(key, section?.title ?? '', section?.description ?? ''),
        input.output,
      );
      const chance = injected ? 0 : (score - 1) / 4;
      return [
        key,
        items.map(
          (item) => !injected && (keyWords(item).some((w) => text.includes(w)) || rng.chance(chance)),
        ),
      ];
    }),
  );
}
