import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { boolProp, contentProp } from './readProps.js';
import { propIcon } from './propIcon.js';
import { titleAnchor } from './componentAnchors.js';

/** `Accordion`: a `<details>` disclosure (opens without JS), with title, description, icon and `defaultOpen`. */
export const Accordion: ComponentRenderer = (props, children, ctx) => {
  const title = contentProp(props, 'title');
  const description = contentProp(props, 'description');
  const icon = propIcon(props, ctx, 16);
  return el(
    'details',
    {
      className: ['enclave-accordion'],
      open: boolProp(props, 'defaultOpen'),
      // `#title-slug` (or the `id` prop) reaches this accordion; components.js opens it on arrival.
      dataEnclaveAnchor: titleAnchor(props),
    },
    [
      el('summary', { className: ['enclave-accordion-summary'] }, [
        icon ? el('span', { className: ['enclave-accordion-icon'] }, icon) : null,
        el('span', { className: ['enclave-accordion-heading'] }, [
          el('span', { className: ['enclave-accordion-title'] }, title ?? 'Details'),
          description ? el('span', { className: ['enclave-accordion-description'] }, description) : null,
        ]),
      ]),
      el('div', { className: ['enclave-accordion-body'] }, children),
    ],
  );
};

/** `AccordionGroup`: visually joins consecutive accordions. */
export const AccordionGroup: ComponentRenderer = (_props, children) => el('div', { className: ['enclave-accordion-group'] }, children);
