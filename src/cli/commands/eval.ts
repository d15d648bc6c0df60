import { notImplemented } from '../../errors.js';

export default async function evalCommand(): Promise<number> {
  throw notImplemented('eval', 'Evaluation');
}
