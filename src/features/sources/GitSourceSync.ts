import type { Logger } from 'pino';
import type { Clock } from '../../platform/Clock.js';
import { gitSourceTree } from '../../platform/git/gitSourceTree.js';
import { randomId } from '../../platform/randomId.js';
import type { Site, SiteDirectory } from '../control/SiteDirectory.js';
import type { BuiltBundle, DeployBundle } from '../exports/reexportSite.js';
import { describeCommit } from './describeCommit.js';
import { type FetchedBranch, type FetchOptions, fetchGitSource } from './fetchGitSource.js';
import type { GitSourceConfig } from '../../config/sections/gitSource.js';
import { type CommitLine, listCommits } from './listCommits.js';
import type { SourceStateRepository } from './SourceStateRepository.js';
import type { UpdateSource } from './UpdateStatusRecord.js';
import type { SharedSsh } from './ssh/SshConnections.js';

/** What a sync needs from the rest of the appliance (ports app/ hands over). */
export interface GitSourceSyncDeps {
  sites: SiteDirectory;
  state: SourceStateRepository;
  /** The export feature's export-and-wait, at a given tree-ish. */
  exportAndBundle(domain: string, options: { ref: string }): Promise<BuiltBundle>;
  deploy: DeployBundle;
  clock: Clock;
  logger: Logger;
  fetchTimeoutMs: number;
  /** Shared ssh connections for ssh sources (null: every fetch logs in). */
  ssh: SharedSsh | null;
}

/**
 * Keeps git sources live: fetch the deployment branch, and when its tip is not what is live,
 * export that commit and hand the bundle to the deployment feature, unless pages failed. One
 * run per site at a time; requests arriving while one is queued share it (a burst of pushes
 * builds once, at the newest commit).
 */
export class GitSourceSync {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly waiting = new Map<string, string>();
  /** Aborted by stop(): fetches are killed, waits for exports given up, so shutdown is not held up. */
  private readonly stopping = new AbortController();

  constructor(private readonly deps: GitSourceSyncDeps) {}

  /** Every site with a git source. */
  gitSites(): Site[] {
    return this.deps.sites.list().filter((s) => s.git);
  }

  /** Queues an update of `site` (webhook, API); resolves with its status id once recorded. */
  async request(site: Site, source: UpdateSource): Promise<string> {
    const queued = this.waiting.get(site.domain);
    if (queued) return queued;
    const id = randomId('upd_');
    await this.deps.state.queue({ id, projectId: site.projectId, domain: site.domain, source, at: this.now() });
    this.waiting.set(site.domain, id);
    void this.enqueue(site.domain, () => this.run(site.domain, id));
    return id;
  }

  /** One poll: fetch, and only if the branch moved past what is live, update (the poll task's body). */
  poll(domain: string): Promise<void> {
    return this.enqueue(domain, () => this.run(domain, null));
  }

  /**
   * Fetches `domain`'s branch (in turn with its updates) and lists the commits since `since`:
   * what an automation's agent is told. Null for a site without a git source.
   */
  commitsSince(domain: string, since: string | null): Promise<{ head: string; commits: CommitLine[] } | null> {
    const site = this.deps.sites.find(domain);
    const git = site?.git;
    if (!site || !git) return Promise.resolve(null);
    let result: { head: string; commits: CommitLine[] } | null = null;
    const timeoutMs = this.deps.fetchTimeoutMs;
    const done = this.enqueue(domain, async () => {
      const { sha } = await fetchGitSource(git, site.source, this.fetchOptions(domain));
      result = { head: sha, commits: await listCommits(site.source, { head: sha, since, timeoutMs }) };
    });
    return done.then(() => {
      if (!result) throw new Error(`could not fetch ${git.git} (${git.branch}); see the log`);
      return result;
    });
  }

  /** Ends every run now (shutdown): each records that it was interrupted; the live version stays. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.idle();
  }

  /** Resolves when every run queued so far has ended. */
  async idle(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /**
   * Runs `work` in `domain`'s turn, after the runs queued before it: a preview's fetch and
   * export never run beside an update of the same site (they share its clone and its exports).
   */
  inTurn(domain: string, work: () => Promise<void>): Promise<void> {
    return this.enqueue(domain, work);
  }

  /** Fetches `branch` of `site`'s repository into its clone (a preview's); throws GitFetchError. */
  fetchBranch(site: Site & { git: GitSourceConfig }, branch: string): Promise<FetchedBranch> {
    return fetchGitSource({ ...site.git, branch }, site.source, this.fetchOptions(site.domain));
  }

  /** `work`, or a rejection as soon as the appliance stops (the export job itself is the export feature's to requeue). */
  untilStopped<T>(work: Promise<T>): Promise<T> {
    const { signal } = this.stopping;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(new Error('the appliance is shutting down'));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** Every fetch's bounds; lock files a killed git left in the clone are logged as they are removed. */
  private fetchOptions(domain: string): FetchOptions {
    return {
      timeoutMs: this.deps.fetchTimeoutMs,
      signal: this.stopping.signal,
      ssh: this.deps.ssh ?? undefined,
      onStaleLocks: (locks) => this.deps.logger.warn({ domain, locks }, 'removed lock files a killed git left in the clone'),
    };
  }

  private enqueue(domain: string, work: () => Promise<void>): Promise<void> {
    const next = (this.tails.get(domain) ?? Promise.resolve())
      .then(() => (this.stopping.signal.aborted ? undefined : work()))
      .catch((err: Error) => {
        this.deps.logger.error({ domain, err: err.message }, 'git source update crashed');
      });
    this.tails.set(domain, next);
    return next;
  }

  // size: one update's steps in order (fetch, compare, describe, export, check, deploy), each recorded as it ends
  private async run(domain: string, queuedId: string | null): Promise<void> {
    if (queuedId) this.waiting.delete(domain);
    const { state, logger } = this.deps;
    const site = this.deps.sites.find(domain);
    let statusId = queuedId;
    const step = (change: Parameters<SourceStateRepository['progress']>[1]) =>
      statusId ? state.progress(statusId, change) : Promise.resolve();
    const fail = async (summary: string) => {
      logger.warn({ domain, statusId }, `git source ${domain}: ${summary}`);
      await state.recordSite(domain, { lastError: summary });
      await step({ status: 'failure', summary, log: summary, endedAt: this.now() });
    };
    if (!site?.git) return fail('the site no longer has a git source');
    const git = site.git;
    await step({ status: 'in_progress', summary: `Fetching ${git.branch}`, log: `fetching ${git.branch} of ${git.git}` });
    let fetched: Awaited<ReturnType<typeof fetchGitSource>>;
    try {
      fetched = await fetchGitSource(git, site.source, this.fetchOptions(domain));
    } catch (err) {
      await state.recordSite(domain, { lastFetchAt: this.now() });
      return fail((err as Error).message);
    }
    const liveSha = state.site(domain).liveSha;
    await state.recordSite(domain, { fetchedSha: fetched.sha, lastFetchAt: this.now() });
    if (liveSha === fetched.sha) {
      await step({ status: 'success', summary: `Already live at ${fetched.sha.slice(0, 12)}`, endedAt: this.now() });
      return;
    }
    if (!statusId) {
      statusId = randomId('upd_');
      await state.queue({ id: statusId, projectId: site.projectId, domain, source: 'poll', at: this.now() });
      await step({ status: 'in_progress', log: `poll found ${git.branch} at ${fetched.sha}` });
    }
    await step({ summary: `Exporting ${fetched.sha.slice(0, 12)}`, log: `exporting ${fetched.sha}` });
    // The commit is described (a git process or two) while the export runs, not before it.
    const exporting = this.untilStopped(this.deps.exportAndBundle(domain, { ref: gitSourceTree(fetched.sha, git.path) }));
    exporting.catch(() => {}); // awaited below; must not go unhandled meanwhile
    const commit = await describeCommit(site.source, {
      sha: fetched.sha,
      since: liveSha,
      branch: git.branch,
      path: git.path,
      timeoutMs: this.deps.fetchTimeoutMs,
    }).catch(() => undefined);
    if (commit) await step({ commit });
    let built: BuiltBundle;
    try {
      built = await exporting;
    } catch (err) {
      return fail(`export of ${fetched.sha.slice(0, 12)} failed: ${(err as Error).message}; the live version stays`);
    }
    await step({ exportJobId: built.jobId, log: `export ${built.jobId} built version ${built.version}` });
    if (built.failedPages > 0) {
      return fail(`export ${built.jobId} of ${fetched.sha.slice(0, 12)} has ${built.failedPages} failed page(s); the live version stays`);
    }
    try {
      await this.deps.deploy({ domain, zipPath: built.zipPath, jobId: built.jobId, sha256: built.sha256 });
    } catch (err) {
      return fail(`deploy of export ${built.jobId} failed: ${(err as Error).message}; the live version stays`);
    }
    await state.recordSite(domain, { liveSha: fetched.sha, lastError: null });
    const summary = `Deployed ${fetched.sha.slice(0, 12)}${commit ? ` (${commit.message})` : ''}`;
    logger.info({ domain, sha: fetched.sha, jobId: built.jobId }, `git source ${domain}: ${summary}`);
    await step({ status: 'success', summary, log: summary, endedAt: this.now() });
  }
}
