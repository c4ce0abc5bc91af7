import type { PreviewsConfig } from '../../../config/sections/sources.js';
import { AppError } from '../../../platform/AppError.js';
import { randomId } from '../../../platform/randomId.js';
import type { Site } from '../../control/SiteDirectory.js';
import type { UpdateSource } from '../UpdateStatusRecord.js';
import { buildPreview, type PreviewBuildDeps } from './buildPreview.js';
import { type PreviewUrls, previewSlug, previewUrls } from './previewAddress.js';
import type { PreviewRecord } from './PreviewRecord.js';
import { hasReaderSignIn } from './hasReaderSignIn.js';

/** A requested (re)deploy: its update status and where the preview is opened. */
export interface RequestedPreview {
  statusId: string;
  previewUrl: string;
  preview: PreviewRecord;
}

/**
 * The previews of git branches: requests (a second one for a branch redeploys it at the same
 * URL), their builds in the site's turn with its updates, listing, deletion, expiry and the
 * restore at start. Records are PreviewRepository's; versions on disk the deployment feature's
 * PreviewHosting.
 */
export class GitPreviews {
  /** Builds asked for and not started, by preview: a burst of requests builds once. */
  private readonly waiting = new Map<string, string>();

  constructor(
    private readonly deps: Omit<PreviewBuildDeps, 'urlOf'> & {
      config: PreviewsConfig;
      publicUrl(): string;
    },
  ) {}

  /** Where `preview` is opened. */
  urls(preview: Pick<PreviewRecord, 'domain' | 'slug'>): PreviewUrls {
    // A site with reader sign-in is previewed on its own host only (see servePreviewRequest).
    const host = hasReaderSignIn(this.deps.sites, preview.domain) ? null : this.deps.config.host;
    return previewUrls(this.deps.publicUrl(), preview.domain, preview.slug, host);
  }

  /** The URL a preview of `branch` of `site` has (or will have): known before it exists. */
  urlFor(site: Site, branch: string): string {
    return this.urls({ domain: site.domain, slug: previewSlug(site.domain, branch) }).url;
  }

  /** Queues a (re)deploy of `branch` of `site` (a git site); resolves once its status is recorded. */
  async request(site: Site, branch: string, source: UpdateSource, agentJobId: string | null = null): Promise<RequestedPreview> {
    const { previews, state, clock } = this.deps;
    const at = clock.now();
    const expiresAt = new Date(at.getTime() + this.deps.config.expireAfterHours * 3_600_000).toISOString();
    let preview = previews.ofBranch(site.domain, branch);
    const queued = preview && this.waiting.get(preview.id);
    if (preview && queued) {
      await previews.requested(preview.id, { statusId: queued, expiresAt, agentJobId });
      return { statusId: queued, previewUrl: this.urls(preview).url, preview };
    }
    const statusId = randomId('upd_');
    await state.queue({ id: statusId, projectId: site.projectId, domain: site.domain, source, at: at.toISOString() });
    if (preview) await previews.requested(preview.id, { statusId, expiresAt, agentJobId });
    else {
      preview = {
        id: randomId('prv_'),
        projectId: site.projectId,
        domain: site.domain,
        branch,
        slug: previewSlug(site.domain, branch),
        state: 'building',
        sha: null,
        versionName: null,
        statusId,
        agentJobId,
        createdAt: at.toISOString(),
        deployedAt: null,
        expiresAt,
        lastError: null,
      };
      await previews.insert(preview);
    }
    const id = preview.id;
    this.waiting.set(id, statusId);
    void this.deps.sync.inTurn(site.domain, () => {
      this.waiting.delete(id);
      return buildPreview({ ...this.deps, urlOf: (pid) => this.urlOf(pid) }, id, statusId);
    });
    return { statusId, previewUrl: this.urls(preview).url, preview };
  }

  /** The previews of `projectId`, newest first. */
  list(projectId: string): PreviewRecord[] {
    return this.deps.previews
      .all()
      .filter((p) => p.projectId === projectId)
      .reverse();
  }

  /** The preview of `projectId` with id `idOrBranch`, else the one of that branch (404 when neither). */
  find(projectId: string, idOrBranch: string): PreviewRecord {
    const mine = this.list(projectId);
    const found = mine.find((p) => p.id === idOrBranch) ?? mine.find((p) => p.branch === idOrBranch);
    if (!found) throw AppError.notFound('Preview not found');
    return found;
  }

  /** Deletes a preview: it stops being served at once and its files go once no request reads them. */
  async remove(preview: PreviewRecord): Promise<void> {
    await this.deps.previews.remove(preview.id);
    if (preview.versionName) await this.deps.hosting.remove(preview.versionName);
    this.deps.logger.info({ previewId: preview.id, branch: preview.branch, domain: preview.domain }, 'preview deleted');
  }

  /** The expiry task's body: deletes every preview whose time ran out by `now`; returns how many. */
  async expire(now: Date): Promise<number> {
    const due = this.deps.previews.all().filter((p) => Date.parse(p.expiresAt) <= now.getTime());
    for (const preview of due) await this.remove(preview);
    return due.length;
  }

  /** At start: serves every built preview again and deletes versions no preview names. */
  async restore(): Promise<void> {
    const keep = new Set<string>();
    for (const preview of this.deps.previews.all()) {
      if (preview.versionName && (await this.deps.hosting.open(preview.versionName))) keep.add(preview.versionName);
      else if (preview.state === 'building') await this.deps.previews.failed(preview.id, 'Interrupted by a restart');
    }
    await this.deps.hosting.prune(keep);
  }

  private urlOf(previewId: string): string {
    const preview = this.deps.previews.byId(previewId);
    return preview ? this.urls(preview).url : '';
  }
}
