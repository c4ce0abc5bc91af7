import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';

/** `Column`: one cell of a `Columns` grid, holding whatever the author puts in it. */
export const Column: ComponentRenderer = (_props, children) => el('div', { className: ['enclave-column'] }, children);
