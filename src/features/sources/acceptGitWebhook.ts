import { readFile } from 'node:fs/promises';
import { AppError } from '../../platform/AppError.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import type { GitSourceSync } from './GitSourceSync.js';
import { verifyGitWebhook } from './verifyGitWebhook.js';

/** What a webhook delivery led to. */
export type WebhookOutcome = { statusId: string } | { ignored: string };

/**
 * One push webhook for `domain`: the site must have a git source with a webhook secret (404
 * and 403 otherwise), the delivery must carry that secret as its server signs (401), and only
 * a push to the deployment branch queues an update; anything else is acknowledged and ignored.
 */
export async function acceptGitWebhook(
  deps: { sites: SiteDirectory; sync: GitSourceSync },
  delivery: { domain: string; headers: Record<string, string | string[] | undefined>; body: Buffer },
): Promise<WebhookOutcome> {
  const site = deps.sites.find(delivery.domain);
  if (!site?.git) throw AppError.notFound('No site with a git source has this domain');
  if (!site.git.webhookSecretFile) throw AppError.forbidden('Webhooks are off for this site (no webhookSecretFile is configured)');
  const secret = (await readFile(site.git.webhookSecretFile, 'utf8')).trim();
  const event = verifyGitWebhook(delivery.headers, delivery.body, secret);
  if (event.kind === 'ignored') return { ignored: event.reason };
  if (event.branch !== site.git.branch) return { ignored: `push to ${event.branch}, not the deployment branch ${site.git.branch}` };
  return { statusId: await deps.sync.request(site, 'webhook') };
}
