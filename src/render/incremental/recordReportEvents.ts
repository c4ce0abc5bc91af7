import type { ReportCollector } from '../types.js';

/** One call made on a ReportCollector, as plain data: `[method, ...arguments]`. */
export type ReportEvent = {
  [K in keyof ReportCollector]: [K, ...Parameters<ReportCollector[K]>];
}[keyof ReportCollector];

/**
 * A ReportCollector that only records: what a page reports is kept with the page (and with its
 * cached body), then replayed in page order, so a reused page reports exactly what it did when
 * rendered, and the report's order no longer depends on which thread rendered which page.
 */
export function createReportRecorder(): { collector: ReportCollector; take(): ReportEvent[] } {
  let events: ReportEvent[] = [];
  // A trailing `undefined` (a warning without a page) would come back from JSON as null.
  const record = (event: unknown[]) => {
    while (event.length > 1 && event[event.length - 1] === undefined) event.pop();
    events.push(event as ReportEvent);
  };
  const collector: ReportCollector = {
    brokenLink: (...args) => record(['brokenLink', ...args]),
    missingImage: (...args) => record(['missingImage', ...args]),
    unknownComponent: (...args) => record(['unknownComponent', ...args]),
    externalUrl: (...args) => record(['externalUrl', ...args]),
    removedRemote: (...args) => record(['removedRemote', ...args]),
    removedActive: (...args) => record(['removedActive', ...args]),
    warning: (...args) => record(['warning', ...args]),
  };
  return {
    collector,
    take() {
      const taken = events;
      events = [];
      return taken;
    },
  };
}

/** Makes the calls `events` recorded, in order, on `into`. */
export function replayReportEvents(events: readonly ReportEvent[], into: ReportCollector): void {
  for (const [method, ...args] of events) (into[method] as (...a: unknown[]) => void)(...args);
}
