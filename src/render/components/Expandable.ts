import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { boolProp, textProp } from './readProps.js';

/** `Expandable`: nested fields behind a "Show …" disclosure (`<details>`, nests freely). */
export const Expandable: ComponentRenderer = (props, children) => {
  const title = textProp(props, 'title') || 'properties';
  return el('details', { className: ['enclave-expandable'], open: boolProp(props, 'defaultOpen') }, [
    el('summary', { className: ['enclave-expandable-summary'], dataTitle: title }, `Show ${title}`),
    el('div', { className: ['enclave-expandable-body'] }, children),
  ]);
};
