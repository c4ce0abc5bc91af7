import { createShikiTokenizer } from './code/createShikiTokenizer.js';

/**
 * Loads what every render needs before the site is known: the highlighter and its WebAssembly
 * regex engine, a slow part of a worker's start. A worker started ahead of its job calls this
 * while it waits.
 */
export async function preloadRenderer(): Promise<void> {
  await createShikiTokenizer([]);
}
