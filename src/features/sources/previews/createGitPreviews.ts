import type { Logger } from 'pino';
import type { SiteRequest, SiteRequestHandler } from '../../../http/SiteRequestHandler.js';
import type { Task } from '../../../platform/Task.js';
import type { PreviewHosting } from '../../deployments/PreviewVersions.js';
import type { BuiltBundle } from '../../exports/reexportSite.js';
import type { FeatureContext } from '../../Feature.js';
import type { GitSourceSync } from '../GitSourceSync.js';
import type { SourceStateRepository } from '../SourceStateRepository.js';
import { GitPreviews } from './GitPreviews.js';
import { PreviewRepository } from './PreviewRepository.js';
import { servePreviewRequest } from './servePreviewRequest.js';
import { previewsForAgents } from './previewsForAgents.js';
import type { AgentPreviews } from '../../agent/AgentPreviews.js';

/** The previews part of the sources feature, as sourcesFeature mounts it. */
export interface GitPreviewsPart {
  previews: GitPreviews;
  records: PreviewRepository;
  /** The site handler's hook (see servePreviewRequest). */
  servePreview(request: SiteRequest): ReturnType<SiteRequestHandler> | false;
  /** Previews of agent jobs' pushed branches. */
  agentPreviews: AgentPreviews;
  /** Deletes expired previews on `sources.previews.expiryCron`. */
  expiry: Task;
}

/** Opens `previews.json` and builds the previews' operations, site hook and expiry task on the sources feature's sync. */
export async function createGitPreviews(
  ctx: FeatureContext,
  deps: {
    sync: GitSourceSync;
    state: SourceStateRepository;
    logger: Logger;
    hosting: PreviewHosting;
    exportAndBundle(domain: string, options: { ref: string }): Promise<BuiltBundle>;
  },
): Promise<GitPreviewsPart> {
  const config = ctx.config.sources.previews;
  const records = await PreviewRepository.open(ctx.config.dataDir);
  const previews = new GitPreviews({
    ...deps,
    sites: ctx.sites,
    previews: records,
    clock: ctx.clock,
    fetchTimeoutMs: ctx.config.sources.fetchTimeoutSeconds * 1000,
    config,
    publicUrl: ctx.publicUrl,
  });
  const { logger } = deps;
  return {
    previews,
    records,
    agentPreviews: previewsForAgents({ sites: ctx.sites, previews }),
    servePreview: servePreviewRequest({
      previews: records,
      hosting: deps.hosting,
      sites: ctx.sites,
      hostPattern: config.host,
      logger: deps.logger,
    }),
    expiry: {
      name: 'preview-expiry',
      cron: config.expiryCron,
      async run(now) {
        const removed = await previews.expire(now);
        if (removed > 0) logger.info({ removed }, 'expired previews deleted');
      },
    },
  };
}
