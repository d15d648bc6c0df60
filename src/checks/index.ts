export type { CheckContext, CheckDefinition, CheckIssue } from './check-definition.js';
export { CheckOutcome, CheckResult, ChecksFile, SampleChecks } from './check-result.js';
export {
  CHECK_TYPE_NAMES,
  CHECK_TYPES,
  type CheckTypeName,
  checkName,
  findCheck,
  parseCheckType,
  validateCheckEntry,
} from './registry.js';
export { negate, type RunChecksInput, runChecks } from './run-checks.js';
