import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { contentProp, textProp } from './readProps.js';

/** `Tooltip`: text with a hint (`tip`, optional `headline` and `cta` link) shown on hover and keyboard focus. */
export const Tooltip: ComponentRenderer = (props, children, ctx) => {
  const id = ctx.nextId('tooltip');
  const headline = contentProp(props, 'headline');
  const cta = textProp(props, 'cta');
  const href = textProp(props, 'href');
  return el('span', { className: ['enclave-tooltip'], dataEnclaveTooltip: '' }, [
    // Focusable so keyboard users can reach the hint; described-by makes screen readers read it.
    el('span', { className: ['enclave-tooltip-trigger'], tabIndex: 0, ariaDescribedby: id }, children),
    el('span', { className: ['enclave-tooltip-content'], role: 'tooltip', id }, [
      headline ? el('strong', { className: ['enclave-tooltip-headline'] }, headline) : null,
      el('span', { className: ['enclave-tooltip-tip'] }, contentProp(props, 'tip') ?? ''),
      cta && href ? el('a', { className: ['enclave-tooltip-cta'], href: ctx.href(href) }, cta) : null,
    ]),
  ]);
};
