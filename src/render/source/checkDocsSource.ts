import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Why `dir` is not a Mintlify docs source, or null when it is one: it must be a folder with a
 * `docs.json` (or legacy `mint.json`) that parses. Shared by the export worker (which fails the
 * job) and `enclave doctor` (which reports it before anyone exports).
 */
export async function checkDocsSource(dir: string): Promise<string | null> {
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => null,
  );
  if (isDir === null) return `docs source ${dir} does not exist`;
  if (!isDir) return `docs source ${dir} is not a folder`;
  for (const name of ['docs.json', 'mint.json']) {
    let text: string;
    try {
      text = await readFile(join(dir, name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return `cannot read ${join(dir, name)}: ${(err as Error).message}`;
    }
    try {
      JSON.parse(text);
      return null;
    } catch (err) {
      return `${join(dir, name)} is not valid JSON: ${(err as Error).message}`;
    }
  }
  return `docs source ${dir} has no docs.json or mint.json (not a Mintlify docs folder)`;
}
