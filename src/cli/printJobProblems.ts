import type { CliIo } from './CliIo.js';
import { escapeControls } from './escapeControls.js';

/** The parts of an export job that say what went wrong with its pages. */
export interface JobProblems {
  jobId: string;
  status: string;
  error?: string;
  expectedPages?: number | null;
  failedPages?: { path: string; message: string }[];
  warnings?: { kind: string; page: string | null; message: string }[];
  warningCount?: number;
  warningGroups?: { kind: string; count: number; first: { page: string | null; message: string }[] }[];
  reusedPages?: number;
  renderedPages?: number;
}

/**
 * Prints a job's failure, failed pages and warnings to stderr (stdout keeps the JSON for
 * scripts) and says whether the job is bad: failed, or completed with pages that did not
 * render — those would go live as error pages.
 */
export function printJobProblems(io: CliIo, job: JobProblems): boolean {
  if (job.status === 'completed' && job.reusedPages !== undefined && job.renderedPages !== undefined)
    io.err.write(`enclave: ${job.reusedPages} page(s) reused from the last export, ${job.renderedPages} rendered\n`);
  if (job.status === 'failed') io.err.write(`enclave: ${escapeControls(`export ${job.jobId} failed: ${job.error ?? 'unknown reason'}`)}\n`);
  const failed = job.failedPages ?? [];
  if (failed.length > 0) {
    const of = job.expectedPages ? ` of ${job.expectedPages}` : '';
    io.err.write(
      `enclave: ${failed.length}${of} page(s) failed to render; each shows an error page, and deploy refuses this bundle unless --allow-failed:\n`,
    );
    for (const f of failed) io.err.write(`  ${escapeControls(`/${f.path}: ${f.message}`)}\n`);
  }
  const warnings = job.warnings ?? [];
  const total = job.warningCount ?? warnings.length;
  const groups = job.warningGroups ?? [];
  if (total > 0 && groups.length > 0) {
    // By kind, so a site's many broken links don't push its other warnings off the list.
    io.err.write(`enclave: ${total} warning(s) (by kind, the first of each shown; all are in the bundle's _enclave/report.json):\n`);
    for (const g of groups) {
      io.err.write(`  ${escapeControls(g.kind)} (${g.count}):\n`);
      for (const w of g.first) io.err.write(`    ${escapeControls(`${w.page ? `/${w.page}: ` : ''}${w.message}`)}\n`);
    }
  } else if (total > 0) {
    io.err.write(
      `enclave: ${total} warning(s)${total > warnings.length ? ` (first ${warnings.length} shown; all are in the bundle's _enclave/report.json)` : ''}:\n`,
    );
    for (const w of warnings) io.err.write(`  ${escapeControls(`${w.kind}${w.page ? ` /${w.page}` : ''}: ${w.message}`)}\n`);
  }
  return job.status === 'failed' || failed.length > 0;
}
