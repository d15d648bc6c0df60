export { type ChecksSignal, type ChecksSignalInput, checksSignal } from './checks-signal.js';
export { combine } from './combine.js';
export {
  type ExpectationsSignal,
  type ExpectationsSignalInput,
  expectationsSignal,
} from './expectations-signal.js';
export {
  type JudgeSignal,
  type JudgeSignalInput,
  judgeSignal,
  normaliseCriteria,
} from './judge-signal.js';
export { casesInSplit, scoreSplit } from './score-split.js';
export { declareChecks, toScoringCases } from './scoring-cases.js';
export * from './types.js';
