import type { BundleSink } from '../../bundle/BundleSink.js';
import { escapeAttributeValue } from '../page/hastToHtml.js';
import type { ReportCollector } from '../types.js';
import type { AnchorCheck } from './createPageContext.js';
import { pageFile } from './SiteIndex.js';

/** Letters and digits only: how two spellings of the same heading id are compared. */
const loose = (id: string) =>
  id
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Checks `#fragment` links once every page's ids are known. A fragment that only differs from a
 * real id in punctuation (authors often link `#tasks%2Fget` or `#meta` to the heading
 * `tasks/get` / `_meta`) is repaired in the written page instead of being reported; anything
 * else is a broken link. Returns the pages it rewrote.
 */
export async function checkAnchors(
  out: BundleSink,
  checks: AnchorCheck[],
  ids: Map<string, Set<string>>,
  report: ReportCollector,
): Promise<ReadonlySet<string>> {
  const looseIds = new Map<string, Map<string, string>>();
  const fixes = new Map<string, [string, string][]>();
  for (const c of checks) {
    const targetIds = ids.get(c.target);
    if (!targetIds || targetIds.has(c.hash)) continue;
    let index = looseIds.get(c.target);
    if (!index) {
      index = new Map();
      for (const id of targetIds) if (!index.has(loose(id))) index.set(loose(id), id);
      looseIds.set(c.target, index);
    }
    const real = loose(c.hash) ? index.get(loose(c.hash)) : undefined;
    if (!real) {
      report.brokenLink(c.page, c.href, `no heading or anchor #${c.hash} on /${c.target}`);
      continue;
    }
    const fixed = `${c.emitted.replace(/#.*$/, '')}#${encodeURIComponent(real)}`;
    if (!fixes.has(c.page)) fixes.set(c.page, []);
    fixes.get(c.page)!.push([c.emitted, fixed]);
  }
  for (const [page, pairs] of fixes) {
    const file = pageFile(page);
    // On bytes, not strings: a large page as a string, split and joined again was held several
    // times over, at the export's memory high-water mark.
    let html = await out.read(file);
    for (const [from, to] of pairs)
      html = replaceAll(html, Buffer.from(`href="${escapeAttributeValue(from)}"`), Buffer.from(`href="${escapeAttributeValue(to)}"`));
    await out.write(file, html);
  }
  return new Set(fixes.keys());
}

/** `bytes` with every occurrence of `from` replaced by `to` (the same buffer when there is none). */
function replaceAll(bytes: Buffer, from: Buffer, to: Buffer): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, start)) {
    parts.push(bytes.subarray(start, at), to);
    start = at + from.length;
  }
  if (parts.length === 0) return bytes;
  parts.push(bytes.subarray(start));
  return Buffer.concat(parts);
}
