import type { Element } from 'hast';
import type { ReportCollector } from '../types.js';
import { isRemoteUrl } from './isRemoteUrl.js';
import { stripRemoteCss } from './stripRemoteCss.js';

/**
 * Takes the remote loads that are not media out of one element written in a page: a `<script
 * src>` or `<link href>` from another origin (returns false: drop the element), and remote
 * `url()`s / `@import`s in a `style` attribute or a `<style>` element (rewritten in place). Each
 * is reported for `page`. Media (`img`, `iframe`, …) are finalizeContent's, with placeholders.
 */
export function stripRemoteFromElement(el: Element, page: string, report: ReportCollector): boolean {
  const { tagName, properties } = el;
  if (
    (tagName === 'script' && typeof properties.src === 'string' && isRemoteUrl(properties.src)) ||
    (tagName === 'link' && typeof properties.href === 'string' && isRemoteUrl(properties.href))
  ) {
    const url = String(tagName === 'script' ? properties.src : properties.href);
    report.removedRemote({ page, kind: tagName === 'script' ? 'script' : 'stylesheet', url, action: 'removed' });
    return false;
  }
  const strip = (css: string) => {
    const stripped = stripRemoteCss(css);
    for (const r of stripped.removed) report.removedRemote({ page, kind: r.kind, url: r.url, action: 'removed' });
    return stripped.css;
  };
  if (typeof properties.style === 'string' && properties.style.includes('//')) properties.style = strip(properties.style);
  if (tagName === 'style') {
    for (const child of el.children) if (child.type === 'text' && child.value.includes('//')) child.value = strip(child.value);
  }
  return true;
}
