import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';

/**
 * Writes the tree of `ref` in the git repository `repoDir` into `targetDir` (`git archive`
 * piped into `tar`), so an export of a ref never touches the repository's working copy.
 */
export async function exportSourceAtRef(repoDir: string, ref: string, targetDir: string): Promise<void> {
  await mkdir(targetDir, { recursive: true });
  const git = spawn('git', ['-C', repoDir, 'archive', '--format=tar', ref], { stdio: ['ignore', 'pipe', 'pipe'] });
  const tar = spawn('tar', ['-x', '-C', targetDir], { stdio: ['pipe', 'ignore', 'pipe'] });
  git.stdout.pipe(tar.stdin);
  let gitErr = '';
  let tarErr = '';
  git.stderr.setEncoding('utf8').on('data', (c: string) => (gitErr = (gitErr + c).slice(-2000)));
  tar.stderr.setEncoding('utf8').on('data', (c: string) => (tarErr = (tarErr + c).slice(-2000)));
  const exit = (child: ReturnType<typeof spawn>) =>
    new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve(code ?? 1));
    });
  const [gitCode, tarCode] = await Promise.all([exit(git), exit(tar)]);
  if (gitCode !== 0) throw new Error(`cannot read ref '${ref}' of ${repoDir}: ${gitErr.trim() || `git exited ${gitCode}`}`);
  if (tarCode !== 0) throw new Error(`cannot unpack ref '${ref}': ${tarErr.trim() || `tar exited ${tarCode}`}`);
}
