import { tmpdir } from 'node:os';
import { GitTextLog } from '../../platform/git/GitTextLog.js';
import { runGit, type GitContext } from '../../platform/git/runGit.js';
import type { UpdateCommit } from './UpdateStatusRecord.js';

/** Files listed per kind of change: a rename of a whole tree must not make a huge record. */
const MAX_FILES = 500;

/**
 * The hosted `commit` of an update: subject, author, and the files changed since `since` (the
 * live commit; everything in the commit's tree when nothing was live yet), read from the clone.
 * With `path`, only files below the docs folder count, relative to it.
 */
export async function describeCommit(
  cloneDir: string,
  options: { sha: string; since: string | null; branch: string; path?: string; timeoutMs: number },
): Promise<UpdateCommit> {
  const git: GitContext = { cwd: cloneDir, home: tmpdir(), timeoutMs: options.timeoutMs, log: new GitTextLog() };
  const { stdout: meta } = await runGit(git, ['log', '-1', '--format=%an%x00%ae%x00%s', options.sha]);
  const [name = '', email = '', message = ''] = meta.split('\0');
  const scope = options.path ? ['--', options.path] : [];
  const range = options.since
    ? ['diff', '--no-renames', '--name-status', '-z', options.since, options.sha]
    : ['ls-tree', '-r', '-z', '--name-only', options.sha];
  const { stdout } = await runGit(git, [...range, ...scope]);
  const filesChanged = { added: [] as string[], modified: [] as string[], removed: [] as string[] };
  const fields = stdout.split('\0').filter(Boolean);
  const relative = (file: string) => (options.path ? file.slice(options.path.length + 1) : file);
  if (!options.since) filesChanged.added = fields.map(relative);
  else {
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const kind = fields[i]!;
      const list = kind === 'A' ? filesChanged.added : kind === 'D' ? filesChanged.removed : filesChanged.modified;
      list.push(relative(fields[i + 1]!));
    }
  }
  for (const list of Object.values(filesChanged)) list.splice(MAX_FILES);
  return { sha: options.sha, ref: `refs/heads/${options.branch}`, message, author: { name, email }, filesChanged };
}
