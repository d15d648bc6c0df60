/**
 * The simulated grader: an expectation passes when the output holds its content words (all of
 * them up to four, 80% of longer lists, matched by stem), and the evidence is the verbatim
 * sentence holding most of them; claims are the output's sentences with figures, checked
 * against the transcript. An agent case's output folders (docs/design/grader-protocol.md) are
 * graded sample by sample: a folder's files together, then the agent's transcript, which is
 * evidence too.
 */
import type { GraderCallInput, GradingFile } from '../../../protocol/grading.js';
import { contentWords, countWords, type Segment, splitSegments, stem, stemsOf } from '../text.js';

/** Expectations with up to this many content words need every one of them in the output. */
export const ALL_WORDS_UP_TO = 4;
/** Share of a longer expectation's content words an output must contain to pass it. */
export const PASS_COVERAGE = 0.8;
/** Evidence quotes shorter than this are widened to the neighbouring sentence. */
export const MIN_QUOTE_CHARS = 20;
/** Expectations with this many content words or fewer are flagged as easy to satisfy. */
export const TRIVIAL_WORDS = 2;

type Output = GraderCallInput['outputs'][number];
type Verdict = GradingFile['expectations'][number];

function expectationWords(text: string): string[] {
  const meaningful = contentWords(text, { dropMeta: true });
  return meaningful.length > 0 ? meaningful : contentWords(text);
}

/** Widen a segment with its neighbours until the quote is long enough; always a slice of the text. */
function quoteAround(text: string, segments: Segment[], index: number): string {
  let first = index;
  let last = index;
  const slice = (): string => text.slice(segments[first]?.start ?? 0, segments[last]?.end ?? 0);
  while (slice().length < MIN_QUOTE_CHARS && (last < segments.length - 1 || first > 0)) {
    if (last < segments.length - 1) last++;
    else first--;
  }
  return slice();
}

interface Match {
  covered: string[];
  missing: string[];
  quote?: string;
}

function matchWords(words: string[], output: Output): Match {
  const segments = splitSegments(output.text);
  const stemsPerSegment = segments.map((segment) => stemsOf(segment.text));
  const found = (word: string, stems: Set<string>): boolean => stems.has(stem(word));
  const covered = words.filter((word) => stemsPerSegment.some((stems) => found(word, stems)));
  let best = -1;
  let bestHits = 0;
  stemsPerSegment.forEach((stems, i) => {
    const hits = words.filter((word) => found(word, stems)).length;
    if (hits > bestHits) [best, bestHits] = [i, hits];
  });
  return {
    covered,
    missing: words.filter((word) => !covered.includes(word)),
    quote: best >= 0 ? quoteAround(output.text, segments, best) : undefined,
  };
}

const STRUCTURAL = /\bquestion\b|\bsubject line\b/i;

/** A few expectation shapes are structural rather than about content. */
function matchStructure(expectation: string, output: Output): Match | undefined {
  const segments = splitSegments(output.text);
  if (!STRUCTURAL.test(expectation)) return undefined;
  if (/\bquestion\b/i.test(expectation)) {
    const index = segments.findIndex((s) => s.text.endsWith('?'));
    if (index < 0) return { covered: [], missing: ['a question'] };
    return { covered: ['a question'], missing: [], quote: quoteAround(output.text, segments, index) };
  }
  const first = segments[0];
  if (!first || !/^subject:/i.test(first.text)) return { covered: [], missing: ['a subject line'] };
  return { covered: ['a subject line'], missing: [], quote: quoteAround(output.text, segments, 0) };
}

function passes(match: Match, total: number): boolean {
  const needed = total <= ALL_WORDS_UP_TO ? total : Math.ceil(PASS_COVERAGE * total);
  return match.quote !== undefined && match.covered.length >= Math.max(1, needed);
}

function gradeExpectation(text: string, outputs: Output[], transcript?: Output): Verdict {
  if (outputs.length === 0) return { text, passed: false, evidence: 'There is no output to examine.' };
  const words = expectationWords(text);
  const matchOf = (output: Output) => matchStructure(text, output) ?? matchWords(words, output);
  const passing = (match: Match) => passes(match, match.covered.length + match.missing.length);
  const matches = outputs.map((output) => {
    const match = matchOf(output);
    if (passing(match) || transcript === undefined) return match;
    const inTranscript = matchOf(transcript);
    return passing(inTranscript) ? inTranscript : match;
  });
  const failing = matches.findIndex((match) => !passes(match, match.covered.length + match.missing.length));
  if (failing < 0) return { text, passed: true, evidence: matches[0]?.quote ?? '' };
  const match = matches[failing] as Match;
  const file = outputs[failing]?.file ?? 'the output';
  const missing = match.missing.map((word) => `"${word}"`).join(', ');
  const closest = match.quote ? ` The closest sentence is: "${match.quote}".` : '';
  return {
    text,
    passed: false,
    evidence: `Nothing in ${file} covers ${missing || 'what this asks for'}.${closest}`,
  };
}

function extractClaims(outputs: Output[], transcript: string): GradingFile['claims'] {
  const output = outputs[0];
  if (!output) return [];
  const segments = splitSegments(output.text);
  const claims: GradingFile['claims'] = segments
    .filter((s) => /\d/.test(s.text) && !/^subject:/i.test(s.text))
    .slice(0, 2)
    .map((s) => {
      const figures = s.text.match(/\d[\d.,%]*/g) ?? [];
      const unsupported = figures.filter((figure) => !transcript.includes(figure.replace(/[.,]+$/, '')));
      return {
        claim: s.text,
        type: 'factual',
        verified: unsupported.length === 0,
        evidence:
          unsupported.length === 0
            ? 'Every figure in it also appears in the transcript.'
            : `Nothing in the transcript supports ${unsupported.map((f) => `"${f}"`).join(', ')}.`,
      };
    });
  const last = segments[segments.length - 1];
  if (last?.text.endsWith('?'))
    claims.push({
      claim: 'The output ends with a question',
      type: 'quality',
      verified: true,
      evidence: last.text,
    });
  if (claims.length === 0) {
    const words = countWords(output.text);
    claims.push({
      claim: `The output is ${words} words long`,
      type: 'process',
      verified: true,
      evidence: `Counted ${words} words in ${output.file}.`,
    });
  }
  return claims.slice(0, 3);
}

/** Expectations that passed while asking for almost nothing, and format rules a check would test better. */
function critique(verdicts: Verdict[]): GradingFile['eval_feedback'] {
  const suggestions = verdicts.flatMap(({ text, passed }) => {
    if (STRUCTURAL.test(text))
      return [
        {
          assertion: text,
          reason: 'This is a format rule; a deterministic check tests it more reliably than a grader.',
        },
      ];
    const words = contentWords(text, { dropMeta: true });
    if (!passed || words.length > TRIVIAL_WORDS) return [];
    const asked = words.map((w) => `"${w}"`).join(' and ') || 'a vague quality';
    return [
      {
        assertion: text,
        reason: `It only asks for ${asked}, so an output passes by dropping the word in anywhere; say what a good answer must do with it.`,
      },
    ];
  });
  return {
    suggestions,
    overall:
      suggestions.length > 0
        ? 'Some expectations are easy to satisfy without real quality or belong in deterministic checks.'
        : 'The expectations look specific enough to tell good outputs from weak ones.',
  };
}

const IN_FOLDER = /^(outputs\/output_\d+)\//;

/** An agent case's files, one output per folder (its files one after another); undefined for text outputs. */
function folderSamples(outputs: readonly Output[]): Output[] | undefined {
  if (outputs.length === 0 || !outputs.every((o) => IN_FOLDER.test(o.file))) return undefined;
  const folders = new Map<string, string[]>();
  for (const output of outputs) {
    const folder = IN_FOLDER.exec(output.file)?.[1] as string;
    folders.set(folder, [...(folders.get(folder) ?? []), output.text]);
  }
  return [...folders].map(([folder, texts]) => ({ file: `${folder}/`, text: texts.join('\n\n') }));
}

export function gradeCase(input: GraderCallInput): GradingFile {
  const samples = folderSamples(input.outputs);
  const expectations = input.expectations.map((text) =>
    samples === undefined
      ? gradeExpectation(text, input.outputs)
      : gradeExpectation(text, samples, { file: 'transcript.md', text: input.transcript }),
  );
  const passed = expectations.filter((e) => e.passed).length;
  const total = expectations.length;
  return {
    expectations,
    summary: {
      passed,
      failed: total - passed,
      total,
      pass_rate: total === 0 ? 0 : Math.round((passed / total) * 100) / 100,
    },
    claims: extractClaims(input.outputs, input.transcript),
    eval_feedback: critique(expectations),
  };
}
