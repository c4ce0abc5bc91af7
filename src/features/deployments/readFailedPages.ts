import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BundleRefusedError } from '../../bundle/BundleRefusedError.js';
import type { BuildReport } from '../../render/index.js';

/** How many failed pages a refusal names before "and N more". */
const NAMED_PAGES = 3;

/**
 * The pages an extracted bundle's `_enclave/report.json` lists as failed, or null when the
 * bundle carries no readable report (a bundle from another generator): such a bundle is not
 * refused on this ground, as there is nothing to judge it by.
 */
export async function readFailedPages(filesDir: string): Promise<BuildReport['pages']['failed'] | null> {
  let report: Partial<BuildReport>;
  try {
    report = JSON.parse(await readFile(join(filesDir, '_enclave', 'report.json'), 'utf8')) as Partial<BuildReport>;
  } catch {
    return null;
  }
  const failed = report?.pages?.failed;
  return Array.isArray(failed) ? failed.filter((f) => f && typeof f.path === 'string') : null;
}

/** The refusal of a bundle with `count` failed pages: the count, the first pages (when known) and how to force it. */
export function failedPagesRefusal(count: number, firstPaths: readonly string[]): BundleRefusedError {
  const named = firstPaths.slice(0, NAMED_PAGES);
  const more = count > named.length && named.length > 0 ? ` and ${count - named.length} more` : '';
  const list = named.length ? ` (${named.join(', ')}${more})` : '';
  return new BundleRefusedError(
    `the bundle's build report lists ${count} failed ${count === 1 ? 'page' : 'pages'}${list}; readers would see broken pages. Deploy with allowFailed: true (enclave deploy --allow-failed) to serve it anyway`,
    'report',
  );
}

/**
 * Judges an extracted bundle by its build report: refuses one with failed pages unless
 * `allowFailed`, and returns how many failed (null: no readable report).
 */
export async function checkFailedPages(filesDir: string, allowFailed: boolean): Promise<number | null> {
  const failed = await readFailedPages(filesDir);
  if (failed?.length && !allowFailed)
    throw failedPagesRefusal(
      failed.length,
      failed.map((f) => f.path),
    );
  return failed?.length ?? null;
}
