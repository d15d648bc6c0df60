/**
 * promptfoo's assertion vocabulary as the importer sorts it: deterministic types autoresearch
 * shares (the check registry), model-graded types that become grader expectations, and the
 * rest, each with the reason it has no equivalent.
 */

/** Model-graded types whose `value` states what a good output does: grader expectations here. */
export const EXPECTATION_TYPES = new Set([
  'llm-rubric',
  'model-graded-closedqa',
  'factuality',
  'model-graded-factuality',
  'g-eval',
]);

/** Every base type promptfoo knows, so `__expected` cells like `not-icontains:foo` parse as in promptfoo. */
export const PROMPTFOO_TYPES = [
  'answer-relevance',
  'assert-set',
  'bleu',
  'classifier',
  'contains',
  'contains-all',
  'contains-any',
  'contains-html',
  'contains-json',
  'contains-sql',
  'contains-xml',
  'context-faithfulness',
  'context-recall',
  'context-relevance',
  'conversation-relevance',
  'cost',
  'equals',
  'f-score',
  'factuality',
  'finish-reason',
  'g-eval',
  'gleu',
  'guardrails',
  'human',
  'icontains',
  'icontains-all',
  'icontains-any',
  'is-html',
  'is-json',
  'is-refusal',
  'is-sql',
  'is-valid-function-call',
  'is-valid-openai-function-call',
  'is-valid-openai-tools-call',
  'is-xml',
  'javascript',
  'latency',
  'levenshtein',
  'llm-rubric',
  'max-score',
  'meteor',
  'model-graded-closedqa',
  'model-graded-factuality',
  'moderation',
  'perplexity',
  'perplexity-score',
  'pi',
  'python',
  'regex',
  'rouge-n',
  'ruby',
  'search-rubric',
  'select-best',
  'similar',
  'starts-with',
  'tool-call-f1',
  'trace-error-spans',
  'trace-span-count',
  'trace-span-duration',
  'webhook',
  'word-count',
] as const;

const WHY_BY_TYPE: [RegExp, string][] = [
  [
    /^similar$/,
    'it compares embeddings, and autoresearch has no similarity check; describe the meaning you want as an expectation or a rubric criterion',
  ],
  [
    /^(?:levenshtein|rouge-n|bleu|gleu|meteor|f-score)$/,
    'a reference-overlap metric with no equivalent; an expectation or a javascript check can test what matters',
  ],
  [/^(?:cost|latency)$/, 'it measures the call, not the output; the budget in experiment.yaml caps spending'],
  [
    /^(?:python|ruby)$/,
    'autoresearch runs javascript checks only; wrap the script in a `command` check (output on stdin, exit 0 = pass)',
  ],
  [/^webhook$/, 'no equivalent; a `command` check can call the webhook'],
  [
    /^(?:select-best|max-score)$/,
    'it compares the outputs of several prompts or providers; autoresearch compares candidate prompts itself',
  ],
  [
    /^(?:classifier|moderation|guardrails|pi|is-refusal)$/,
    'it needs a classifier model that autoresearch does not call',
  ],
  [
    /^(?:perplexity|perplexity-score|finish-reason|is-valid-function-call|is-valid-openai-function-call|is-valid-openai-tools-call|tool-call-f1|trace-.*)$/,
    'it depends on details of the provider response (log-probabilities, tool calls, traces) that autoresearch does not keep',
  ],
  [
    /^(?:context-.*|answer-relevance|conversation-relevance|search-rubric)$/,
    'a retrieval or conversation metric that needs context autoresearch does not pass to checks',
  ],
  [
    /^(?:is-xml|contains-xml|is-html|contains-html|is-sql|contains-sql)$/,
    'no equivalent check type; a javascript check can parse the output instead',
  ],
  [/^human$/, 'it needs a person to grade each output'],
];

export function whyUnsupported(baseType: string): string {
  for (const [pattern, why] of WHY_BY_TYPE) if (pattern.test(baseType)) return why;
  return 'no equivalent check type in autoresearch';
}
