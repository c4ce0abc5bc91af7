import type { ReportCollector } from '../types.js';
import type { BuildReport } from './BuildReport.js';

/** A ReportCollector that also tracks page outcomes and can produce the final BuildReport. */
export interface BuildReportCollector extends ReportCollector {
  pageRendered(): void;
  pageFailed(path: string, reason: string): void;
  setExpected(n: number): void;
  /** Records what the navigation declares but the source can't provide (counted into `expected`). */
  missingInput(input: string, reason: string, pages: string[]): void;
  /** Count of pages that fell back somewhere (unknown component, unevaluable expression). */
  warningCount(): number;
  /** Adds the page-level findings another collector made (a worker thread's share). */
  absorb(part: BuildReport): void;
  toJSON(): BuildReport;
}

/** Each list is capped so a pathological source can't blow up memory or the report file. */
const MAX_ENTRIES = 20_000;

/** Creates an empty collector; duplicate entries (same page + target) are recorded once. */
// size: a factory: most lines are the small closures it returns, which share its private state
export function createReportCollector(): BuildReportCollector {
  const report: BuildReport = {
    pages: { expected: 0, rendered: 0, missing: 0, failed: [] },
    missingInputs: [],
    brokenLinks: [],
    missingImages: [],
    unknownComponents: {},
    externalUrls: [],
    removedRemote: [],
    removedActive: [],
    warnings: [],
  };
  const seen = new Set<string>();
  const once = (key: string): boolean => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const push = <T>(list: T[], item: T) => {
    if (list.length < MAX_ENTRIES) list.push(item);
  };
  return {
    brokenLink(page, href, reason) {
      if (once(`b\0${page}\0${href}`)) push(report.brokenLinks, { page, href, reason });
    },
    missingImage(page, src) {
      if (once(`m\0${page}\0${src}`)) push(report.missingImages, { page, src });
    },
    unknownComponent(name) {
      report.unknownComponents[name] = (report.unknownComponents[name] ?? 0) + 1;
    },
    externalUrl(page, url) {
      if (once(`e\0${page}\0${url}`)) push(report.externalUrls, { page, url });
    },
    removedRemote(entry) {
      if (once(`r\0${entry.page}\0${entry.url}`)) push(report.removedRemote, entry);
    },
    removedActive(entry) {
      if (once(`a\0${entry.page}\0${entry.where}\0${entry.value}`)) push(report.removedActive, entry);
    },
    warning(message, page) {
      if (once(`w\0${page ?? ''}\0${message}`)) push(report.warnings, page === undefined ? { message } : { message, page });
    },
    pageRendered() {
      report.pages.rendered++;
    },
    pageFailed(path, reason) {
      report.pages.failed.push({ path, reason });
    },
    setExpected(n) {
      report.pages.expected = n;
    },
    missingInput(input, reason, pages) {
      report.missingInputs.push({ input, reason, pages });
      report.pages.missing += pages.length;
    },
    warningCount() {
      return report.warnings.length;
    },
    absorb(part) {
      for (const b of part.brokenLinks) this.brokenLink(b.page, b.href, b.reason);
      for (const m of part.missingImages) this.missingImage(m.page, m.src);
      for (const e of part.externalUrls) this.externalUrl(e.page, e.url);
      for (const r of part.removedRemote) this.removedRemote(r);
      for (const a of part.removedActive) this.removedActive(a);
      for (const w of part.warnings) this.warning(w.message, w.page);
      for (const [name, count] of Object.entries(part.unknownComponents))
        report.unknownComponents[name] = (report.unknownComponents[name] ?? 0) + count;
    },
    toJSON() {
      return report;
    },
  };
}
