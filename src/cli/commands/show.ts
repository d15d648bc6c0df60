import { notImplemented } from '../../errors.js';

export default async function showCommand(): Promise<number> {
  throw notImplemented('show', 'Morning review');
}
