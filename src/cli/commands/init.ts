import { notImplemented } from '../../errors.js';

export default async function initCommand(): Promise<number> {
  throw notImplemented('init', 'Foundation');
}
