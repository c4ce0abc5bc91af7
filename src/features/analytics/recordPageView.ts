import type { ServedPage } from '../deployments/site/PageServedHook.js';
import type { IngestGuard } from '../../http/IngestGuard.js';
import type { Clock } from '../../platform/Clock.js';
import type { AnalyticsLog } from './AnalyticsLog.js';
import { classifyClient } from './classifyClient.js';
import type { ViewBudget } from './ViewBudget.js';
import type { VisitorSalt } from './VisitorSalt.js';

/** Files made for machines (llms files, the search index's agent channel): every fetch of one is an AI view. */
const MACHINE_FILES = new Set(['llms.txt', 'llms-full.txt', 'search-agents.json']);

/** The page a served file stands for, and whether it is a machine copy; null for assets. */
export function pageOfFile(file: string): { path: string; machineCopy: boolean } | null {
  if (MACHINE_FILES.has(file)) return { path: `/${file}`, machineCopy: true };
  const m = /^(.*)\.(html|md)$/.exec(file);
  if (!m || file === '404.html') return null;
  const stem = m[1] === 'index' ? '' : m[1].replace(/\/index$/, '');
  return { path: `/${stem}`, machineCopy: m[2] === 'md' };
}

/** What counting a view needs. */
export interface PageViewDeps {
  log: AnalyticsLog;
  salt: VisitorSalt;
  guard: IngestGuard;
  /** Per-address budgets and repeat folding, asked before the global guard. */
  budget: ViewBudget;
  clock: Clock;
  /** The project owning a served domain, or null (its views are not counted). */
  projectOf(domain: string): string | null;
}

/**
 * Counts one served file as a view when it is a page (or its Markdown copy, or llms.txt),
 * classified human or AI by its client; probes and tools are not counted. The view belongs
 * to the project of the site that served it. A repeat by the same visitor within the window
 * is not counted again, and the address's own budget is asked before the global one, so one
 * client can't spend the budget of everyone. Never waits: the event is counted in memory and
 * written with the next batch; a flood or a volume below its free-space floor only drops events.
 */
export function recordPageView(deps: PageViewDeps, served: ServedPage): void {
  const page = pageOfFile(served.file);
  if (!page) return;
  const kind = classifyClient(served.userAgent, page.machineCopy);
  if (kind === 'ignored') return;
  const projectId = deps.projectOf(served.domain);
  if (!projectId) return;
  const visitor = deps.salt.visitorOf(served.address, served.userAgent ?? '');
  // A user agent no browser sends: every address's overflow visitor hashes this one.
  const overflow = () => deps.salt.visitorOf(served.address, '\u0000overflow');
  const verdict = deps.budget.admit(served.address, visitor, `${served.domain}\n${page.path}`, overflow);
  if (!verdict.count || deps.guard.admitNow() !== 'ok') return;
  deps.log.record(projectId, {
    kind: 'view',
    at: deps.clock.now().getTime(),
    domain: served.domain,
    version: served.version,
    path: page.path,
    ai: kind === 'ai',
    visitor: verdict.visitor,
  });
}
