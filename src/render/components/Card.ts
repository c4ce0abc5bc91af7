import type { ComponentRenderer } from '../types.js';
import { renderIcon } from '../icons/renderIcon.js';
import { el } from './buildElement.js';
import { boolProp, colorProp, contentProp, textProp } from './readProps.js';
import { propIcon } from './propIcon.js';

/** `Card`: a linked (or plain) box with title, icon or image, body, optional call-to-action and arrow. */
export const Card: ComponentRenderer = (props, children, ctx) => {
  const rawHref = textProp(props, 'href');
  const href = rawHref ? ctx.href(rawHref) : undefined;
  const img = textProp(props, 'img');
  const color = colorProp(props, 'color');
  const icon = propIcon(props, ctx, 20);
  const horizontal = boolProp(props, 'horizontal');
  const external = rawHref !== undefined && /^[a-z][a-z0-9+.-]*:/i.test(rawHref);
  const arrow = boolProp(props, 'arrow', external);
  const cta = textProp(props, 'cta');
  const title = contentProp(props, 'title');
  const body = [
    icon ? el('span', { className: ['enclave-card-icon'], style: color ? `color:${color}` : undefined }, icon) : null,
    el('div', { className: ['enclave-card-body'] }, [
      title ? el('p', { className: ['enclave-card-title'] }, title) : null,
      children.length > 0 ? el('div', { className: ['enclave-card-content'] }, children) : null,
      cta ? el('span', { className: ['enclave-card-cta'] }, cta) : null,
    ]),
    arrow && href ? el('span', { className: ['enclave-card-arrow'] }, renderIcon('arrow-up-right', ctx, { size: 14 })) : null,
  ];
  const className = [
    'enclave-card',
    horizontal ? 'enclave-card-horizontal' : '',
    href ? 'enclave-card-linked' : '',
    img ? 'enclave-card-has-img' : '',
  ].filter(Boolean);
  const media = img ? el('img', { className: ['enclave-card-img'], src: ctx.assetUrl(img), alt: '', loading: 'lazy' }) : null;
  const attrs = external ? { target: '_blank', rel: 'noopener noreferrer' } : {};
  return href
    ? el('a', { className, href, ...attrs }, [media, el('div', { className: ['enclave-card-inner'] }, body)])
    : el('div', { className }, [media, el('div', { className: ['enclave-card-inner'] }, body)]);
};
