import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { contentProp, textProp } from './readProps.js';

/** `Tile`: a preview tile (children are the visual) with `title`, `description`, linked by `href`. */
export const Tile: ComponentRenderer = (props, children, ctx) => {
  const href = textProp(props, 'href');
  const title = contentProp(props, 'title');
  const description = contentProp(props, 'description');
  const content = [
    el('div', { className: ['enclave-tile-media'] }, children),
    title ? el('p', { className: ['enclave-tile-title'] }, title) : null,
    description ? el('p', { className: ['enclave-tile-description'] }, description) : null,
  ];
  return href
    ? el('a', { className: ['enclave-tile'], href: ctx.href(href) }, content)
    : el('div', { className: ['enclave-tile'] }, content);
};
