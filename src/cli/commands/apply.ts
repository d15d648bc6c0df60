import { notImplemented } from '../../errors.js';

export default async function applyCommand(): Promise<number> {
  throw notImplemented('apply', 'The optimization loop');
}
