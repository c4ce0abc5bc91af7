import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { boolProp, textProp } from './readProps.js';
import { propIcon } from './propIcon.js';

/** Prop values become class names, so only plain words pass. */
const word = (value: string | undefined, fallback: string): string => (value && /^[a-z][a-z-]{0,30}$/.test(value) ? value : fallback);

/** `Badge`: a small label with `color`, `size`, `shape`, `icon`, `stroke` and `disabled`. */
export const Badge: ComponentRenderer = (props, children, ctx) => {
  const icon = propIcon(props, ctx, 12);
  const className = [
    'enclave-badge',
    `enclave-badge-color-${word(textProp(props, 'color'), 'gray')}`,
    `enclave-badge-size-${word(textProp(props, 'size'), 'md')}`,
    `enclave-badge-shape-${word(textProp(props, 'shape'), 'rounded')}`,
    boolProp(props, 'stroke') ? 'enclave-badge-stroke' : '',
    boolProp(props, 'disabled') ? 'enclave-badge-disabled' : '',
  ].filter(Boolean);
  return el('span', { className, ariaDisabled: boolProp(props, 'disabled') ? 'true' : undefined }, [icon ?? null, ...children]);
};
