import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';

/** `Banner`: an announcement strip. */
export const Banner: ComponentRenderer = (_props, children) =>
  el('div', { className: ['enclave-banner'], role: 'region', ariaLabel: 'Announcement' }, children);
