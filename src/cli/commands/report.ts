import { notImplemented } from '../../errors.js';

export default async function reportCommand(): Promise<number> {
  throw notImplemented('report', 'Morning review');
}
