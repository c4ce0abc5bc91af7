/**
 * Loads what every render needs before the site is known: the renderer's code (renderSite and
 * all it imports) and the highlighter with its WebAssembly regex engine, the slow part of a
 * worker's start. A worker started ahead of its job calls this while it waits. Both load through
 * `import()`, so a process that only imports the front door to check or hash a docs source (the
 * server) never loads them.
 */
export async function preloadRenderer(): Promise<void> {
  const [, { createShikiTokenizer }] = await Promise.all([import('./renderSite.js'), import('./code/createShikiTokenizer.js')]);
  await createShikiTokenizer([]);
}
