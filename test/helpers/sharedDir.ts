import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `../shared` beside the project root: the corpora and the corpus generator (CI checks it out there too). */
const SHARED_DIR = fileURLToPath(new URL('../../../shared', import.meta.url));

/** A path inside `../shared`, wherever the checkout is. */
export function sharedPath(...parts: string[]): string {
  return join(SHARED_DIR, ...parts);
}
