import { request } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeTempDir } from '../helpers/testAppliance.js';
import { gitAs } from '../helpers/testGit.js';

/** Runs git in `cwd` as a docs writer (no config of the machine's). */
export const git = gitAs('Docs Writer');

/** A bare repository `<root>/docs.git` (served by the test's git server) and a working copy that pushes to it. */
export interface DocsRepo {
  root: string;
  bare: string;
  work: string;
  /** Writes files (path → content), commits them with `message` and pushes `branch`; resolves with the new commit. */
  commit(files: Record<string, string | null>, message: string, branch?: string): Promise<string>;
}

/** A docs repository whose `main` holds a two-page site (`index`, `guides/setup`), optionally below `prefix`. */
export async function makeDocsRepo(prefix = ''): Promise<DocsRepo> {
  const root = await makeTempDir('enclave-git-');
  const bare = join(root, 'docs.git');
  const work = join(root, 'work');
  await git(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  await git(root, 'init', '--quiet', '--initial-branch=main', work);
  const repo: DocsRepo = {
    root,
    bare,
    work,
    async commit(files, message, branch = 'main') {
      await git(work, 'checkout', '--quiet', '-B', branch);
      for (const [path, content] of Object.entries(files)) {
        const full = join(work, prefix, path);
        if (content === null) await git(work, 'rm', '--quiet', join(prefix, path) || '.');
        else {
          await mkdir(dirname(full), { recursive: true });
          await writeFile(full, content);
        }
      }
      await git(work, 'add', '--all');
      await git(work, 'commit', '--quiet', '-m', message);
      await git(work, 'push', '--quiet', '--force', bare, branch);
      return git(work, 'rev-parse', 'HEAD');
    },
  };
  await repo.commit(
    {
      'docs.json': JSON.stringify({ name: 'Git docs', navigation: [{ group: 'Guides', pages: ['index', 'guides/setup'] }] }),
      'index.mdx': '---\ntitle: Welcome\n---\n\nFirst version of the welcome page.\n',
      'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall the thing.\n',
    },
    'Initial docs',
  );
  return repo;
}

/** GET `path` from `port` with a Host header of `host` (fetch can't set Host); resolves with status and body. */
export function getSite(port: number, host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}
