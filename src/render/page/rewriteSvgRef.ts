import type { Element } from 'hast';
import type { PageContext } from '../links/createPageContext.js';
import { isRemoteUrl } from '../offline/isRemoteUrl.js';

/** SVG elements that load the file their `href` (or the older `xlink:href`) names. */
export const SVG_REF_TAGS = new Set(['image', 'use']);

/**
 * An SVG `<image>` or `<use>` written in a page loads a file as an `<img>` does, so its reference
 * goes the same way: a local one is made relative to the page (a root-absolute one would miss the
 * bundle under file://) and reported when the source lacks it; a remote one is removed from an
 * offline export and reported (a placeholder box can't go inside a drawing).
 */
export function rewriteSvgRef(el: Element, ctx: PageContext): void {
  // `xlink:href` reaches hast as written in JSX (`xlinkHref`, `xlink:href`) or as hast names it.
  for (const key of ['href', 'xlinkHref', 'xlink:href', 'xLinkHref']) {
    const url = el.properties[key];
    if (typeof url !== 'string') continue;
    if (!isRemoteUrl(url)) el.properties[key] = ctx.assetUrl(url);
    else {
      ctx.report.externalUrl(ctx.pagePath, url);
      if (ctx.keepsRemote) continue;
      ctx.report.removedRemote({ page: ctx.pagePath, kind: 'image', url, action: 'removed' });
      delete el.properties[key];
    }
  }
}
