import { notImplemented } from '../../errors.js';

export default async function runCommand(): Promise<number> {
  throw notImplemented('run', 'The optimization loop');
}
