import { notImplemented } from '../../errors.js';

export default async function stopCommand(): Promise<number> {
  throw notImplemented('stop', 'The optimization loop');
}
