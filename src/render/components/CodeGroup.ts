import type { ComponentRenderer } from '../types.js';
import { boolProp } from './readProps.js';
import { buildTabs } from './buildTabs.js';
import { codeTabItems } from './codeTabItems.js';

/** `CodeGroup`: code blocks as tabs (or a dropdown), kept in sync by label across the page. */
export const CodeGroup: ComponentRenderer = (props, children, ctx) =>
  buildTabs(codeTabItems(children), ctx, {
    className: ['enclave-codegroup'],
    syncGroup: 'code',
    dropdown: boolProp(props, 'dropdown'),
    label: 'Code examples',
  });
