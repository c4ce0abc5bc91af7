import type { ActiveSite } from '../deployments/ActiveSite.js';
import type { FeedbackLog } from './log/FeedbackLog.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import type { FeedbackEntry, FeedbackSubmission } from './FeedbackEntry.js';

/**
 * Records a validated submission for the site the request's `host` reaches and the project that
 * owns it (never one named by the client). Resolves once the entry is durable; with no live
 * site there is nothing the feedback could be about, so it is refused with 503.
 */
export async function ingestFeedback(
  deps: { log: FeedbackLog; activeSite: ActiveSite; clock: Clock },
  submission: FeedbackSubmission,
  host: string,
): Promise<FeedbackEntry> {
  const site = deps.activeSite.current(host);
  if (!site?.projectId) throw AppError.unavailable('No docs site is live here, so feedback cannot be recorded');
  // The schema checked the path against the site live at parse time; a switch since then is re-checked.
  if (!site.pagePaths.has(submission.path)) throw AppError.invalid([{ message: 'body.path: not a page of the live site' }]);
  return deps.log.append(site.projectId, { ...submission, domain: site.domain }, deps.clock.now());
}
