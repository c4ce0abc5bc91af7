import type { BuildReport } from '../../../render/index.js';
import {
  EXPORT_WARNING_KINDS,
  MAX_GROUP_ENTRIES,
  MAX_JOB_WARNINGS,
  type ExportWarning,
  type FailedPage,
  type WarningGroup,
} from '../ExportJobRecord.js';

/** The part of a render report a job record carries. */
export interface ReportSummary {
  failedPages: FailedPage[];
  warnings: ExportWarning[];
  warningCount: number;
  warningGroups: WarningGroup[];
}

/**
 * Turns the render report into what the job shows: every failed page (they each stop a deploy,
 * so none may be hidden) and the first warnings with their total (the full list is in the
 * bundle's report.json; a broken site can have thousands), and the same warnings grouped by
 * kind, so each kind shows however many of another there are.
 */
export function summarizeReport(report: BuildReport): ReportSummary {
  const all: ExportWarning[] = [
    // First: an input the navigation needs but the source lacks (a remote OpenAPI spec with no local copy) loses pages.
    ...report.missingInputs.map(
      (m): ExportWarning => ({
        kind: 'missingInput',
        page: null,
        message: `${m.input}: ${m.reason}; ${m.pages.length} declared page(s) not generated${m.pages.length ? ` (${m.pages.slice(0, 5).join(', ')}${m.pages.length > 5 ? ', …' : ''})` : ''}`,
      }),
    ),
    ...report.brokenLinks.map(
      (b): ExportWarning => ({ kind: 'brokenLink', page: b.page, message: `broken link ${b.href}${b.reason ? ` (${b.reason})` : ''}` }),
    ),
    ...report.missingImages.map((m): ExportWarning => ({ kind: 'missingImage', page: m.page, message: `missing image ${m.src}` })),
    ...Object.entries(report.unknownComponents).map(
      ([name, count]): ExportWarning => ({
        kind: 'unknownComponent',
        page: null,
        message: `unknown component <${name}> used ${count} time${count === 1 ? '' : 's'}; its children were rendered`,
      }),
    ),
    ...report.warnings.map((w): ExportWarning => ({ kind: 'other', page: w.page ?? null, message: w.message })),
  ];
  return {
    failedPages: report.pages.failed.map((f) => ({ path: f.path, message: f.reason })),
    warnings: all.slice(0, MAX_JOB_WARNINGS),
    warningCount: all.length,
    warningGroups: groupWarnings(all),
  };
}

/** Each kind that occurs, in EXPORT_WARNING_KINDS order, with its count and first entries. */
function groupWarnings(all: ExportWarning[]): WarningGroup[] {
  const groups = new Map<ExportWarning['kind'], WarningGroup>(EXPORT_WARNING_KINDS.map((kind) => [kind, { kind, count: 0, first: [] }]));
  for (const w of all) {
    const group = groups.get(w.kind);
    if (!group) continue;
    group.count++;
    if (group.first.length < MAX_GROUP_ENTRIES) group.first.push({ page: w.page, message: w.message });
  }
  return [...groups.values()].filter((g) => g.count > 0);
}
