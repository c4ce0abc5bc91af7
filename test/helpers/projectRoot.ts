import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root (where package.json is). Found through package.json's real path, not this
 * file's place: `npm test` runs the suite compiled under build/test-js/ (scripts/build-test-js.mjs),
 * where package.json is a link to the root's.
 */
export const projectRoot = dirname(realpathSync(fileURLToPath(new URL('../../package.json', import.meta.url))));
