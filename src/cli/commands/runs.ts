import { notImplemented } from '../../errors.js';

export default async function runsCommand(): Promise<number> {
  throw notImplemented('runs', 'Durable runs');
}
