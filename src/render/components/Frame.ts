import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { contentProp } from './readProps.js';

/** `Frame`: a bordered box around images or embeds, with an optional `hint` above and `caption` below. */
export const Frame: ComponentRenderer = (props, children) => {
  const caption = contentProp(props, 'caption');
  const hint = contentProp(props, 'hint');
  return el('figure', { className: ['enclave-frame'] }, [
    hint ? el('p', { className: ['enclave-frame-hint'] }, hint) : null,
    el('div', { className: ['enclave-frame-body'] }, children),
    caption ? el('figcaption', { className: ['enclave-frame-caption'] }, caption) : null,
  ]);
};
