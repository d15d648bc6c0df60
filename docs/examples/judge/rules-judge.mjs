#!/usr/bin/env node
// A minimal judge program for autoresearch (see docs/judge-and-grader.md). It scores with two
// fixed rules instead of a model, so it runs anywhere without a key: copy it into your project
// and replace scoreOutput() with your own judgement.
//
// The protocol, as the runner enforces it:
//   - the current folder holds outputs/output_NN.txt (one per output) and rubric.md;
//   - write judge-scores.json here: every output exactly once, exactly the rubric's criterion
//     keys, whole-number scores 1-5, a non-empty reasoning;
//   - print "JUDGE quality_score=X.XXXX" and exit 0. Any other exit code counts as a failed
//     attempt and the runner tries once more.
// Plain Node 20, no dependencies.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The runner's rule: a heading's text, numbering dropped, in snake_case ("Audience fit" -> audience_fit).
function toKey(title) {
  return title
    .replace(/^\s*\d+[.)]\s*/, '')
    .replace(/[*_`]/g, ' ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

// Criteria are the headings one level below the "Criteria" heading, up to the next heading at
// the Criteria level or above. Headings inside code fences do not count.
function criterionKeys(rubric) {
  const headings = [];
  let inFence = false;
  for (const line of rubric.split(/\r?\n/)) {
    if (/^ {0,3}(```|~~~)/.test(line)) inFence = !inFence;
    const match = inFence ? null : /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (match) headings.push({ level: match[1].length, title: match[2].trim() });
  }
  const start = headings.findIndex((h) => /^criteria:?$/i.test(h.title));
  if (start === -1) throw new Error('rubric.md has no "Criteria" heading');
  const section = headings[start].level;
  const inside = [];
  for (const h of headings.slice(start + 1)) {
    if (h.level <= section) break;
    inside.push(h);
  }
  const level = inside[0]?.level;
  return inside.filter((h) => h.level === level).map((h) => toKey(h.title));
}

// Replace this with real judgement. Here: shorter sentences read more clearly, and 40-150
// words is the right length for a short answer.
function scoreOutput(text, keys) {
  const words = text.split(/\s+/).filter(Boolean).length;
  const sentences = Math.max(1, (text.match(/[.!?](\s|$)/g) ?? []).length);
  const perSentence = words / sentences;
  const clarity =
    perSentence <= 15 ? 5 : perSentence <= 20 ? 4 : perSentence <= 25 ? 3 : perSentence <= 35 ? 2 : 1;
  const brevity = words === 0 ? 1 : words <= 150 ? (words >= 40 ? 5 : 4) : words <= 250 ? 3 : 1;
  const scores = {};
  for (const key of keys) {
    if (/clar|read/.test(key)) scores[key] = clarity;
    else if (/brev|concise|length/.test(key)) scores[key] = brevity;
    else scores[key] = Math.round((clarity + brevity) / 2);
  }
  const reasoning = `${words} words in ${sentences} sentence(s), about ${Math.round(perSentence)} words per sentence.`;
  return { scores, reasoning };
}

const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;

const keys = criterionKeys(readFileSync('rubric.md', 'utf8'));
const files = readdirSync('outputs')
  .filter((name) => name.endsWith('.txt'))
  .sort();
const perOutput = files.map((file) => {
  const { scores, reasoning } = scoreOutput(readFileSync(join('outputs', file), 'utf8'), keys);
  return { file, criteria_scores: scores, average: mean(keys.map((k) => scores[k])), reasoning };
});
const criteriaAverages = Object.fromEntries(
  keys.map((k) => [k, mean(perOutput.map((o) => o.criteria_scores[k]))]),
);
// The seed's formula: the sum of the criterion averages over (criteria x 5).
const qualityScore = keys.reduce((sum, k) => sum + criteriaAverages[k], 0) / (keys.length * 5);

writeFileSync(
  'judge-scores.json',
  `${JSON.stringify({ quality_score: qualityScore, per_output: perOutput, criteria_averages: criteriaAverages }, null, 2)}\n`,
);
process.stdout.write(`JUDGE quality_score=${qualityScore.toFixed(4)}\n`);
