import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * How to run the TypeScript file at `url` (written `new URL('./x.ts', import.meta.url)`) in a
 * node process of its own: the file through tsx when it is there (a test run from the sources,
 * `npx ava`), else the compiled `.js` beside it, without tsx (`npm test` runs the suite compiled,
 * scripts/build-test-js.mjs; tsx cost every child about a second of CPU).
 */
export function nodeScript(url: URL): { loader: string[]; file: string } {
  const file = fileURLToPath(url);
  return existsSync(file)
    ? { loader: ['--import', 'tsx'], file }
    : { loader: ['--enable-source-maps'], file: file.replace(/\.ts$/, '.js') };
}

/** Node's arguments that run the TypeScript file at `url` (see nodeScript). */
export function nodeScriptArgs(url: URL): string[] {
  const { loader, file } = nodeScript(url);
  return [...loader, file];
}
