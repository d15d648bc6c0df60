import { notImplemented } from '../../errors.js';

export default async function validateCommand(): Promise<number> {
  throw notImplemented('validate', 'Foundation');
}
