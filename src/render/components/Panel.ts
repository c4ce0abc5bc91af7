import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';

/** `Panel`: content for the page's side panel (the theme may move it there; it reads fine in place). */
export const Panel: ComponentRenderer = (_props, children) => el('aside', { className: ['enclave-panel'], dataEnclavePanel: '' }, children);
