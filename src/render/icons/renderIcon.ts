import type { ElementContent, RenderContext } from '../types.js';
import { el } from '../components/buildElement.js';
import { safeCssColor } from '../components/readProps.js';
import { findIconSvg } from './findIconSvg.js';
import { nearestFreeIcon } from './nearestFreeIcon.js';
import { cloneHast } from '../page/cloneHast.js';

/** Options shared by every place that shows an icon (Icon, Card, Step, Accordion, …). */
export interface IconOptions {
  size?: number;
  color?: string;
  iconType?: string;
}

/** Icons given as a URL or a file path are images, not names from an icon set. */
function isIconPath(name: string): boolean {
  return (
    /^(https?:)?\/\//i.test(name) ||
    name.startsWith('/') ||
    name.startsWith('./') ||
    name.startsWith('../') ||
    /\.(svg|png|jpe?g|gif|webp|ico)$/i.test(name)
  );
}

/** Renders an icon as inline SVG (only the icons a page uses end up in it); unknown names get a placeholder and a warning. */
export function renderIcon(name: string, ctx: RenderContext, opts: IconOptions = {}): ElementContent {
  const size = opts.size && opts.size > 0 && opts.size < 1000 ? opts.size : undefined;
  const color = safeCssColor(opts.color);
  const style = [size ? `width:${size}px;height:${size}px` : '', color ? `color:${color}` : ''].filter(Boolean).join(';') || undefined;
  const trimmed = name.trim();
  if (isIconPath(trimmed)) {
    return el('img', { src: ctx.assetUrl(trimmed), alt: '', className: ['enclave-icon', 'enclave-icon-img'], style, loading: 'lazy' });
  }
  let found = findIconSvg(trimmed, ctx.iconLibrary, opts.iconType);
  if (!found) {
    const near = nearestFreeIcon(trimmed, ctx.iconLibrary, opts.iconType);
    if (!near) {
      ctx.report.warning(
        `Unknown icon "${trimmed}": not in the bundled free icon sets (Font Awesome Free, Lucide); shown as a neutral glyph`,
        ctx.pagePath,
      );
      return el('span', { className: ['enclave-icon', 'enclave-icon-missing'], ariaHidden: 'true', dataIcon: trimmed, style });
    }
    ctx.report.warning(`Icon "${trimmed}" is not in the bundled free icon sets; shown as "${near.name}"`, ctx.pagePath);
    found = near.found;
  }
  // Each use gets its own copy: callers and later pipeline steps may mutate the tree.
  const svg = cloneHast(found.svg);
  // Keep the drawing attributes (viewBox, fill, stroke…); size and class are ours to set.
  const { className: _c, width: _w, height: _h, xmlns: _x, ...drawing } = svg.properties;
  svg.properties = {
    ...drawing,
    className: ['enclave-icon', `enclave-icon-${found.library}`],
    ariaHidden: 'true',
    focusable: 'false',
    dataIcon: trimmed,
  };
  if (style) svg.properties.style = style;
  return svg;
}
