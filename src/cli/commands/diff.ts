import { notImplemented } from '../../errors.js';

export default async function diffCommand(): Promise<number> {
  throw notImplemented('diff', 'Morning review');
}
