import { createShikiTokenizer } from './code/createShikiTokenizer.js';

/**
 * Loads what every render needs before the site is known: the highlighter and its WebAssembly
 * regex engine (about 0.15 s). A worker started ahead of its job calls this while it waits.
 */
export async function preloadRenderer(): Promise<void> {
  await createShikiTokenizer([]);
}
