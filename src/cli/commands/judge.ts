import { notImplemented } from '../../errors.js';

export default async function judgeCommand(): Promise<number> {
  throw notImplemented('judge', 'Evaluation');
}
