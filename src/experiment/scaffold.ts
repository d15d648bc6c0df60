/**
 * The files `autoresearch init <name>` writes: a small, complete experiment that validates
 * as is (a missing API key is only a warning) and explains every field in a comment, with a
 * labels.yaml template for `autoresearch calibrate`.
 */

export const EXPERIMENT_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface ScaffoldFile {
  /** Relative to the project root. */
  path: string;
  text: string;
}

export function scaffoldExperiment(name: string): ScaffoldFile[] {
  return [
    { path: `experiments/${name}/experiment.yaml`, text: experimentYaml(name) },
    { path: `experiments/${name}/prompt.md`, text: PROMPT },
    { path: `experiments/${name}/cases.yaml`, text: CASES },
    { path: `experiments/${name}/labels.yaml`, text: LABELS },
    { path: `rubrics/${name}.md`, text: rubric(name) },
  ];
}

function experimentYaml(name: string): string {
  return `# The experiment "${name}". Check it with:  autoresearch validate ${name}
# Every path below is relative to this file's folder. Unknown keys are errors.

name: ${name}                      # lowercase letters, digits and dashes
description: Explain a topic in one short paragraph for a given audience   # shown in plans and reports
prompt: prompt.md                  # the ONLY file the loop changes; {{var}} placeholders take case values
cases: cases.yaml                  # the test cases: .yaml, .jsonl or .csv
rubric: ../../rubrics/${name}.md   # optional; with a rubric, an isolated judge scores every output

models:
  # Who writes the outputs. Needs ANTHROPIC_API_KEY in the environment for run/eval.
  generator: { provider: anthropic, model: claude-sonnet-4-5, temperature: 0.7, max_tokens: 600 }
  # Alternatives (one line per role; every entry also takes base_url, api_key_env, timeout_s,
  # max_retries, concurrency, price: { input_per_mtok, output_per_mtok } and params: {...}):
  #   { provider: openai, model: gpt-4.1-mini }                                   # OPENAI_API_KEY
  #   { provider: openai, model: llama3.1, base_url: "http://127.0.0.1:11434/v1" }  # Ollama, no key
  #   { provider: claude-cli }                       # your logged-in \`claude\` binary
  #   { provider: codex-cli }                        # your logged-in \`codex\` binary
  #   { provider: sim }                              # built-in offline simulation (demos, tests)
  # mutator: proposes prompt changes (default: the generator's entry)
  # mutator: { provider: anthropic, model: claude-opus-4-1, max_tokens: 4000 }
  # judge: scores outputs against the rubric (default: the generator's entry at temperature 0)
  # judge: { provider: anthropic, model: claude-sonnet-4-5, temperature: 0, samples: 1 }
  # judge: { command: [node, my-judge.mjs] }     # or any program speaking the judge protocol
  # grader: checks case expectations (default: the judge's model)

checks:                            # deterministic, applied to every output
  - { type: word-count, min: 30, max: 160 }
  - { type: not-icontains-any, value: ["as an ai", "in conclusion"] }
  # - { type: starts-with, value: "Subject:", gate: true }   # gate = a hard constraint

scoring:
  # How the signals combine; a signal the experiment lacks is dropped and the rest renormalised.
  weights: { checks: 0.4, judge: 0.4, expectations: 0.2 }

search:                            # how the loop proposes and judges candidates
  candidates: 1                    # proposals per iteration (independent mutator calls)
  samples: 1                       # generations per case per candidate
  holdout: 0.25                    # share of cases the mutator never sees (here: 4 of 16)
  acceptance: paired               # keep a change only when it wins case by case with confidence
  # confidence: 0.9                # one-sided confidence of the interval on the per-case gain
  min_effect: 0.02                 # the smallest gain worth keeping (score scale 0..1; default 0.01,
                                   # which a judge's own noise on 12 train cases often exceeds)
  # retest: 1                      # more samples for both sides when the first look is unclear
  # minibatch: 8                   # train cases each proposal is screened on first
  # acceptance: margin             # version 1's rule instead, with min_improvement, noise_repeats, confirm
  max_growth: 1.5                  # a candidate may be at most 1.5x the current prompt's length
  bold_after: 3                    # discards in a row before the mutator tries bolder changes
  guidance: ""                     # your standing instructions to the mutator
  seed: 1                          # fixes the split and sampling order

budget:                            # the first limit reached stops the run
  iterations: 20
  hours: 2                         # active running time
  usd: 5                           # spending cap
  patience: 8                      # non-improving iterations in a row
  target: 0.95                     # stop when the train score reaches this

concurrency: 4                     # parallel model calls
`;
}

const PROMPT = `You explain things clearly to people who are not experts.

Explain {{topic}} to {{audience}} in one paragraph of at most 120 words.
Start with why it matters to them, then say how it works in plain words.
Use one concrete example. Do not use jargon without explaining it.
`;

const CASES = `# One entry per case. vars fill the prompt's {{placeholders}}; id is optional
# (a stable one is generated); split: train | holdout | test pins a case (default: the share decides).
# Sixteen cases, so a run can tell a real gain from noise: with 3 or 4 it can only see a huge one
# (\`autoresearch validate\` says the smallest gain the cases can detect). Replace them with inputs
# your prompt really meets, and keep a dozen or more.
- id: compound-interest
  vars:
    topic: compound interest
    audience: a teenager opening a first savings account
  expectations:                    # optional: graded one by one, each PASS must quote the output
    - Gives a concrete example with numbers

- id: dns
  vars:
    topic: how DNS turns a web address into a server
    audience: a small-business owner setting up a website
  checks:                          # optional: extra checks for this case only
    - { type: icontains, value: address }

- id: vaccines
  vars:
    topic: how vaccines train the immune system
    audience: a worried parent

- id: photosynthesis
  vars:
    topic: how plants turn sunlight into food
    audience: a ten-year-old with a school project

- id: inflation
  vars:
    topic: why prices rise over time
    audience: a retiree living on savings

- id: encryption
  vars:
    topic: how a padlock icon keeps a web page private
    audience: someone shopping online for the first time

- id: credit-score
  vars:
    topic: what a credit score measures
    audience: a graduate renting a first flat

- id: tides
  vars:
    topic: why the sea rises and falls twice a day
    audience: a family planning a beach trip

- id: antibiotics
  vars:
    topic: why antibiotics do not cure a cold
    audience: a patient asking for a prescription

- id: mortgage
  vars:
    topic: how a fixed-rate mortgage repayment is split between interest and capital
    audience: a couple buying a first home

- id: climate-feedback
  vars:
    topic: how melting ice speeds up warming
    audience: a high-school student

- id: backups
  vars:
    topic: why a backup on the same disk is not a backup
    audience: a freelancer who keeps everything on one laptop

- id: index-funds
  vars:
    topic: what an index fund is
    audience: a nurse starting a pension

- id: jet-lag
  vars:
    topic: why flying east is harder on the body
    audience: a business traveller

- id: recycling
  vars:
    topic: why greasy pizza boxes are not recycled
    audience: a new student in shared housing

- id: earthquakes
  vars:
    topic: how an earthquake's magnitude is measured
    audience: a reporter covering a quake
`;

/**
 * Three outputs a person scored, to show the shape; calibrate wants a dozen or more
 * (docs/design/judge-reliability.md).
 */
const LABELS = `# Outputs a person has scored against the rubric, to measure the judge:
#   autoresearch calibrate <this experiment>
# Label real outputs (from \`autoresearch eval\` or your application), good and bad alike, at
# least a dozen: a judge can only show it tells good from bad on outputs that differ. Score
# each criterion of the rubric 1–5 as you would want the judge to.
#   output:        the text, or { file: path } (relative to this file)
#   case:          optional, the case it answers (its inputs go to the judge under judging.inputs)
#   scores:        rubric criterion keys (headings in snake_case), integers 1–5
#   expectations:  optional, { "exact expectation text": pass | fail }, to measure the grader
- case: compound-interest
  output: |
    Compound interest means you earn interest on your interest. Put $100 in an account that
    pays 5% a year: after one year you have $105, and the next year you earn 5% on $105, not
    on $100. Leave it for 20 years and the $100 grows to about $265 without you adding a cent.
    That is why starting early matters more than starting big.
  scores: { clarity: 5, accuracy: 5, audience_fit: 4 }
  expectations: { "Gives a concrete example with numbers": pass }

- case: dns
  output: |
    DNS is a hierarchical distributed naming system that resolves fully qualified domain
    names to IP addresses via recursive resolvers querying root, TLD and authoritative
    nameservers, with responses cached according to their TTL values.
  scores: { clarity: 2, accuracy: 5, audience_fit: 1 }

- case: vaccines
  output: |
    Vaccines put the real disease into your child so their body can fight it off early.
    Most children feel fine afterwards, and then they are protected for life.
  scores: { clarity: 4, accuracy: 1, audience_fit: 3 }
`;

function rubric(name: string): string {
  return `# Rubric: ${name}

Score one explanation at a time, as the intended audience would read it.

## Criteria

### Clarity
weight: 1

What it measures: can the audience follow the explanation on first reading?

| Score | Meaning | Example |
|---|---|---|
| 1 | Confusing; undefined jargon or no clear point. | "It leverages asynchronous resolution hierarchies." |
| 2 | The point is there but hard to find. | A long preamble before the topic is even named. |
| 3 | Understandable, with one or two unclear steps. | Uses a technical term once without explaining it. |
| 4 | Clear throughout; a sentence could be tighter. | Plain words, logical order, slightly wordy. |
| 5 | Effortless to follow; every sentence moves it forward. | Short sentences, each building on the last. |

### Accuracy
weight: 1

What it measures: is what it says correct, without misleading simplifications?

| Score | Meaning | Example |
|---|---|---|
| 1 | A central claim is wrong. | Says vaccines contain the full live disease in every case. |
| 2 | Mostly wrong or badly oversimplified. | Treats interest as added only once, at the end. |
| 3 | Correct in outline, one notable inaccuracy. | Mixes up a DNS resolver and a registrar. |
| 4 | Correct; a simplification slightly overreaches. | "Always" where "usually" would be right. |
| 5 | Correct and precise at the chosen level of detail. | Simplifies without saying anything false. |

### Audience fit
weight: 1

What it measures: is it pitched for this audience — their concerns, vocabulary and example?

| Score | Meaning | Example |
|---|---|---|
| 1 | Written for someone else entirely. | A textbook definition for a worried parent. |
| 2 | Generic; the audience is ignored. | Could be pasted into any encyclopedia. |
| 3 | Mentions the audience but the example does not fit them. | A bond-market example for a teenager. |
| 4 | Fits the audience; the opening could speak to them sooner. | Relevant example, generic first sentence. |
| 5 | Feels written for this reader: their worry first, their example. | Starts from the parent's fear, then the mechanism. |
`;
}
