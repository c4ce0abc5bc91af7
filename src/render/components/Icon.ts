import type { ComponentRenderer } from '../types.js';
import { renderIcon } from '../icons/renderIcon.js';
import { el } from './buildElement.js';
import { colorProp, numberProp, textProp } from './readProps.js';

/** `Icon`: an inline icon with `icon`, `iconType`, `color` and `size` (px). */
export const Icon: ComponentRenderer = (props, _children, ctx) => {
  const name = textProp(props, 'icon')?.trim();
  if (!name) return el('span', { className: ['enclave-icon', 'enclave-icon-missing'], ariaHidden: 'true' });
  return renderIcon(name, ctx, {
    size: numberProp(props, 'size'),
    color: colorProp(props, 'color'),
    iconType: textProp(props, 'iconType'),
  });
};
