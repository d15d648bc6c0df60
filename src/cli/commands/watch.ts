import { notImplemented } from '../../errors.js';

export default async function watchCommand(): Promise<number> {
  throw notImplemented('watch', 'Morning review');
}
