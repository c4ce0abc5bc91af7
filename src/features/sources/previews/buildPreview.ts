import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../../platform/Clock.js';
import { gitSourceTree } from '../../../platform/git/gitSourceTree.js';
import type { SiteDirectory } from '../../control/SiteDirectory.js';
import type { PreviewHosting } from '../../deployments/PreviewVersions.js';
import type { BuiltBundle } from '../../exports/reexportSite.js';
import { describeCommit } from '../describeCommit.js';
import type { GitSourceSync } from '../GitSourceSync.js';
import type { SourceStateRepository } from '../SourceStateRepository.js';
import { previewBannerRewrite } from './previewBanner.js';
import type { PreviewRepository } from './PreviewRepository.js';

/** What a preview build needs: the sources feature's own parts and the ports app/ handed it. */
export interface PreviewBuildDeps {
  sites: SiteDirectory;
  sync: GitSourceSync;
  state: SourceStateRepository;
  previews: PreviewRepository;
  hosting: PreviewHosting;
  exportAndBundle(domain: string, options: { ref: string }): Promise<BuiltBundle>;
  clock: Clock;
  logger: Logger;
  fetchTimeoutMs: number;
  /** The URL the preview is opened at (for the status summary). */
  urlOf(previewId: string): string;
}

/**
 * One (re)deploy of a preview, recorded on its update status as it goes: fetch the branch into
 * the site's clone, export that commit like any update does, install the bundle as a new
 * preview version with the banner, then serve it in place of the preview's previous version.
 * The live site's version, deployments and recorded live commit are never touched. A branch
 * the remote does not have, a failed export or failed pages end the status as `failure`; a
 * version already served stays.
 */
// size: the build's steps in order (fetch, describe, export, check, install, switch), each recorded as it ends
export async function buildPreview(deps: PreviewBuildDeps, previewId: string, statusId: string): Promise<void> {
  const { state, previews, logger } = deps;
  const now = () => deps.clock.now().toISOString();
  const step = (change: Parameters<SourceStateRepository['progress']>[1]) => state.progress(statusId, change);
  const record = previews.byId(previewId);
  const fail = async (summary: string) => {
    logger.warn({ previewId, statusId }, `preview: ${summary}`);
    if (previews.byId(previewId)) await previews.failed(previewId, summary);
    await step({ status: 'failure', summary, log: summary, endedAt: now() });
  };
  if (!record) return fail('the preview was deleted before it was built');
  const site = deps.sites.find(record.domain);
  const git = site?.git;
  if (!site || !git) return fail(`the site ${record.domain} no longer has a git source`);
  const { branch } = record;
  await step({ status: 'in_progress', summary: `Fetching ${branch}`, log: `fetching ${branch} of ${git.git} for a preview` });
  let sha: string;
  try {
    sha = (await deps.sync.fetchBranch({ ...site, git }, branch)).sha;
  } catch (err) {
    const message = (err as Error).message;
    return fail(
      /couldn't find remote ref|not found|does not exist/i.test(message) ? `Branch ${branch} does not exist on the remote` : message,
    );
  }
  const commit = await describeCommit(site.source, {
    sha,
    since: state.site(record.domain).liveSha,
    branch,
    path: git.path,
    timeoutMs: deps.fetchTimeoutMs,
  }).catch(() => undefined);
  await step({ summary: `Exporting ${sha.slice(0, 12)}`, log: `exporting ${sha} of ${branch}`, commit });
  let built: BuiltBundle;
  try {
    built = await deps.sync.untilStopped(deps.exportAndBundle(record.domain, { ref: gitSourceTree(sha, git.path) }));
  } catch (err) {
    return fail(`export of ${sha.slice(0, 12)} failed: ${(err as Error).message}`);
  }
  await step({ exportJobId: built.jobId, log: `export ${built.jobId} built version ${built.version}` });
  if (built.failedPages > 0) return fail(`export ${built.jobId} of ${sha.slice(0, 12)} has ${built.failedPages} failed page(s)`);
  const versionName = `${previewId}.${randomBytes(4).toString('hex')}`;
  try {
    await deps.hosting.install(versionName, built.zipPath, previewBannerRewrite({ branch, sha, slug: record.slug }));
  } catch (err) {
    return fail(`install of export ${built.jobId} failed: ${(err as Error).message}`);
  }
  const current = previews.byId(previewId);
  if (!current) {
    // Deleted while it was being built: nothing may serve it.
    await deps.hosting.remove(versionName);
    return fail('the preview was deleted while it was being built');
  }
  const previous = current.versionName;
  await previews.deployed(previewId, { sha, versionName, at: now() });
  if (previous) await deps.hosting.remove(previous);
  const summary = `Preview of ${branch} at ${sha.slice(0, 12)} deployed to ${deps.urlOf(previewId)}`;
  logger.info({ previewId, sha, jobId: built.jobId }, summary);
  await step({ status: 'success', summary, log: summary, endedAt: now() });
}
