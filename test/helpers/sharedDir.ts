import { join } from 'node:path';
import { projectRoot } from './projectRoot.js';

/** `../shared` beside the project root: the corpora and the corpus generator (CI checks it out there too). */
const SHARED_DIR = join(projectRoot, '..', 'shared');

/** A path inside `../shared`, wherever the checkout is. */
export function sharedPath(...parts: string[]): string {
  return join(SHARED_DIR, ...parts);
}
