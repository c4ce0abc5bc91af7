import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { frontmatterText } from '../../src/render/mdx/parseSource.js';
import { readSimpleYaml } from '../../src/render/mdx/readSimpleYaml.js';
import { sharedPath } from '../helpers/sharedDir.js';

// The corpora half of readSimpleYaml.unit.test.ts: it reads ../shared, so it is an int test.

/** The full parser's reading, or undefined where it rejects the document. */
function full(raw: string): unknown {
  try {
    return parseYaml(raw);
  } catch {
    return undefined;
  }
}

function pages(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith('.') || name === 'node_modules') return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? pages(path) : /\.mdx?$/.test(name) ? [path] : [];
  });
}

test('wherever the simple reader answers, it answers exactly what the YAML parser does (every page of the corpora)', (t) => {
  const roots = ['starter', 'mcp', 'unstructured'].map((c) => sharedPath('corpora', c)).concat(resolve('examples/sample-docs'));
  let answered = 0;
  let total = 0;
  for (const file of roots.flatMap(pages)) {
    const raw = frontmatterText(readFileSync(file, 'utf8'));
    if (raw === null) continue;
    total++;
    const simple = readSimpleYaml(raw);
    if (simple === null) continue;
    answered++;
    t.deepEqual(simple, full(raw), file);
  }
  t.log(`${answered} of ${total} frontmatter blocks read without the YAML parser`);
  // Most real frontmatter is this simple; a drop means the fast path stopped working.
  t.true(answered / total > 0.8, `${answered}/${total}`);
});
