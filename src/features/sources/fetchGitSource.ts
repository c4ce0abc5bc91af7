import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import type { GitSourceConfig } from '../../config/sections/gitSource.js';
import { assertPlainGitDir } from '../../platform/git/assertPlainGitDir.js';
import { GitTextLog } from '../../platform/git/GitTextLog.js';
import { redactCredentials } from '../../platform/git/redactCredentials.js';
import { removeStaleGitLocks } from '../../platform/git/removeStaleGitLocks.js';
import { GitCommandError, runGit, type GitContext } from '../../platform/git/runGit.js';
import { gitAccess } from './gitAccess.js';
import type { SharedSsh } from './ssh/SshConnections.js';

/** A fetch that did not bring the branch; `message` says why, fit for the API and the log. */
export class GitFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitFetchError';
  }
}

/** The branch's tip after a fetch. */
export interface FetchedBranch {
  sha: string;
}

/** How a fetch is bounded, and who hears of lock files a killed git left behind (removed). */
export interface FetchOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  ssh?: SharedSsh;
  onStaleLocks?: (paths: string[]) => void;
}

/** Fetches running in this process, by clone: a clone none is using holds no live git lock. */
const fetching = new Map<string, number>();

/** The remote-tracking ref a source's branch is fetched into. */
export function trackingRef(branch: string): string {
  return `refs/remotes/origin/${branch}`;
}

/**
 * Fetches `source.branch` into the appliance's own clone at `cloneDir` (created on first use:
 * an empty repository, never a checkout, so no hook, filter or submodule of the remote's can
 * run). Only the deployment branch is fetched, without tags. The live version is not touched
 * here: a failure throws GitFetchError and the caller keeps serving what it served.
 */
export async function fetchGitSource(source: GitSourceConfig, cloneDir: string, options: FetchOptions): Promise<FetchedBranch> {
  fetching.set(cloneDir, (fetching.get(cloneDir) ?? 0) + 1);
  try {
    return await fetchInto(source, cloneDir, options, fetching.get(cloneDir) === 1);
  } finally {
    const left = (fetching.get(cloneDir) ?? 1) - 1;
    if (left > 0) fetching.set(cloneDir, left);
    else fetching.delete(cloneDir);
  }
}

/** fetchGitSource's work; `alone`: no other fetch of this process uses the clone. */
async function fetchInto(source: GitSourceConfig, cloneDir: string, options: FetchOptions, alone: boolean): Promise<FetchedBranch> {
  const log = new GitTextLog();
  const git: GitContext = { cwd: cloneDir, home: tmpdir(), timeoutMs: options.timeoutMs, log, signal: options.signal };
  if (await missingOrEmpty(cloneDir)) await initClone(git, cloneDir);
  await assertPlainGitDir(cloneDir, 'something', (reason) => new GitFetchError(`the clone at ${cloneDir} is not usable: ${reason}`));
  // The data directory is this process's alone (its lock), so with no fetch of ours running,
  // any lock file is a killed git's: left there, it would fail every fetch from now on.
  if (alone) {
    const stale = await removeStaleGitLocks(cloneDir);
    if (stale.length) options.onStaleLocks?.(stale);
  }
  const ref = trackingRef(source.branch);
  let access: Awaited<ReturnType<typeof gitAccess>>;
  try {
    access = await gitAccess(source);
  } catch (err) {
    throw new GitFetchError(`cannot read the source's credentials: ${(err as Error).message}`);
  }
  const args = [
    'fetch',
    '--quiet',
    '--no-tags',
    '--no-recurse-submodules',
    '--no-write-fetch-head',
    '--',
    source.git,
    `+refs/heads/${source.branch}:${ref}`,
  ];
  try {
    await fetchOverSsh(
      options.ssh,
      source,
      options,
      (sshCommand) => runGit({ ...git, pins: access.pins, sshCommand }, args),
      access.sshCommand,
      log,
    );
  } catch (err) {
    if (!(err instanceof GitCommandError)) throw err;
    const said = log.reason();
    throw new GitFetchError(redactCredentials(`git fetch of ${source.git} (${source.branch}) failed: ${said || err.reason}`));
  }
  const sha = (await looseRef(cloneDir, ref)) ?? (await commitOf(git, ref));
  if (!sha) throw new GitFetchError(`branch ${source.branch} was fetched but names no commit`);
  return { sha };
}

/** True for a folder that is not there or holds nothing (an earlier version made it before `git init`). */
const missingOrEmpty = (dir: string) =>
  readdir(dir).then(
    (names) => names.length === 0,
    () => true,
  );

/**
 * Creates the empty repository in a folder beside `cloneDir` and renames it into place (over an
 * empty folder too), so a kill during `git init` leaves no half-made clone that every later
 * fetch would refuse.
 */
async function initClone(git: GitContext, cloneDir: string): Promise<void> {
  await mkdir(dirname(cloneDir), { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(join(dirname(cloneDir), `.${basename(cloneDir)}.init-`));
  try {
    await runGit({ ...git, cwd: staging }, ['init', '--quiet']);
    await rename(staging, cloneDir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * The commit a fetch just wrote to `ref`, read from its loose file: a fetch of an unchanged
 * repository is three process starts otherwise, and on a busy machine each costs tens of ms.
 * Null (ask git) when the ref is packed or the file is not a plain commit id.
 */
async function looseRef(cloneDir: string, ref: string): Promise<string | null> {
  const text = await readFile(join(cloneDir, '.git', ref), 'utf8').catch(() => '');
  const sha = text.trim();
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha) ? sha : null;
}

/** The commit `rev` names in the clone, or null. */
async function commitOf(git: GitContext, rev: string): Promise<string | null> {
  const { code, stdout } = await runGit(git, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { allowedExitCodes: [1] });
  return code === 0 && stdout ? stdout : null;
}

/**
 * Runs `fetch` through the source's shared ssh connection when there is one (ssh's own
 * fallback covers a master that is gone), else with the direct command. A fetch that fails
 * through the connection (its master died mid-fetch: the server restarted) stops that master
 * and runs once more, logging in directly, so the error, if any, is ssh's own from a fresh
 * login. A timeout or abort is not retried.
 */
async function fetchOverSsh(
  ssh: SharedSsh | undefined,
  source: GitSourceConfig,
  limits: { timeoutMs: number; signal?: AbortSignal },
  fetch: (sshCommand: string | undefined) => Promise<unknown>,
  directCommand: string | undefined,
  log: GitTextLog,
): Promise<void> {
  const lease = directCommand && ssh ? await ssh.lease(source, limits).catch(() => null) : null;
  if (!lease) {
    await fetch(directCommand);
    return;
  }
  try {
    await fetch(lease.sshCommand);
    lease.release();
  } catch (err) {
    await lease.discard();
    if (!(err instanceof GitCommandError) || err.reason === 'timed out' || err.reason === 'interrupted') throw err;
    log.write('the shared ssh connection failed; fetching once more with a login of its own\n');
    await fetch(directCommand);
  }
}
