import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { textProp } from './readProps.js';
import { propIcon } from './propIcon.js';

/** `View`: one alternative version of the page's content; components.js builds the switcher and shows one at a time. */
export const View: ComponentRenderer = (props, children, ctx) => {
  const title = textProp(props, 'title') ?? 'View';
  const icon = propIcon(props, ctx, 14);
  return el('section', { className: ['enclave-view'], dataEnclaveView: '', dataTitle: title, ariaLabel: title }, [
    // The icon is kept (hidden) so the script can copy it into the switcher.
    icon ? el('span', { className: ['enclave-view-icon'], hidden: true }, icon) : null,
    ...children,
  ]);
};
