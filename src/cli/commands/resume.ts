import { notImplemented } from '../../errors.js';

export default async function resumeCommand(): Promise<number> {
  throw notImplemented('resume', 'Durable runs');
}
