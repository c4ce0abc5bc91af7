import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A fence opening line: ``` or ~~~ (possibly indented or quoted), then the language word. */
const FENCE = /^[ \t>]*(?:`{3,}|~{3,})[ \t]*([A-Za-z0-9_#+.-]+)/gm;

/** Languages every site may need even without a fence naming them (generated API examples). */
const ALWAYS = ['bash', 'json'];

/**
 * The fence languages used by the given docs files, so the highlighter compiles only those
 * grammars: compiling one costs tens of milliseconds, and most sites use a handful.
 */
export async function scanFenceLanguages(sourceDir: string, files: Iterable<string>): Promise<string[]> {
  const found = new Set(ALWAYS);
  const queue = [...files].filter((f) => /\.(mdx?|jsx|tsx)$/i.test(f));
  const readNext = async (): Promise<void> => {
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      const text = await readFile(join(sourceDir, file), 'utf8').catch(() => '');
      for (const m of text.matchAll(FENCE)) found.add(m[1].toLowerCase());
    }
  };
  // A few reads in flight at once: the files are small and the disk is local.
  await Promise.all(Array.from({ length: 8 }, readNext));
  return [...found];
}
