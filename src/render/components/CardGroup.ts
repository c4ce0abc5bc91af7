import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { numberProp } from './readProps.js';

/** `CardGroup` / `Columns`: a responsive grid of `cols` columns (1–6, default 2). */
export const CardGroup: ComponentRenderer = (props, children) => {
  const cols = Math.min(6, Math.max(1, Math.round(numberProp(props, 'cols', 2) ?? 2)));
  return el('div', { className: ['enclave-card-group', `enclave-card-group-cols-${cols}`] }, children);
};
