export {
  type ImportedFile,
  type ImportPlan,
  type ImportPromptfooOptions,
  importPromptfoo,
} from './import-promptfoo.js';
export type { Unmapped } from './findings.js';
export { type InitFromPromptfooOptions, runInitFromPromptfoo } from './init-from-promptfoo.js';
export { writeImportedFiles } from './write-import.js';
