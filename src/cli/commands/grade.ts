import { notImplemented } from '../../errors.js';

export default async function gradeCommand(): Promise<number> {
  throw notImplemented('grade', 'Evaluation');
}
