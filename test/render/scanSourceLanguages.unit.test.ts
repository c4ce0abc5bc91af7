import test from 'ava';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scanSourceLanguages } from '../../src/render/code/scanSourceLanguages.js';
import { makeTempDir } from '../helpers/testAppliance.js';

async function site(files: Record<string, string>): Promise<string> {
  const dir = await makeTempDir('enclave-langs-');
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

test('it finds the fence languages of every Markdown page of every folder, and nothing in other files', async (t) => {
  const a = await site({
    'index.mdx': '```python\nx\n```\n',
    'guide/deep.md': '~~~Rust title="x"\nfn\n~~~\n',
    'notes.txt': '```go\n```\n',
    'node_modules/pkg/readme.md': '```ruby\n```\n',
  });
  const b = await site({ 'page.mdx': '```yaml\nk: v\n```\n' });
  const found = await scanSourceLanguages([a, join(a, 'missing-folder'), b], () => false);
  t.deepEqual(
    found.sort(),
    ['bash', 'json', 'python', 'rust', 'yaml'],
    'plus bash and json, which every site may need; no go (not a page), no ruby (node_modules)',
  );
});

test('it stops reading as soon as it is told to, with what it found so far', async (t) => {
  const dir = await site({ 'a.mdx': '```python\n```\n', 'b.mdx': '```rust\n```\n', 'c.mdx': '```go\n```\n' });
  let pages = 0;
  const found = await scanSourceLanguages([dir], () => ++pages > 1);
  t.deepEqual(found.sort(), ['bash', 'json', 'python'], 'only the first page was read');
  t.deepEqual(await scanSourceLanguages([dir], () => true), [], 'told at once: nothing read');
});
