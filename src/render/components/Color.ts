import type { ComponentProps, ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { safeCssColor, textProp } from './readProps.js';

const safe = safeCssColor;

/** A colour value: a string, or `{light, dark}` for theme-dependent colours. */
function colorValues(props: ComponentProps): { light?: string; dark?: string } {
  const value = props.value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    return { light: safe(v.light), dark: safe(v.dark) ?? safe(v.light) };
  }
  const s = safe(value);
  return { light: s, dark: s };
}

/** `Color`: a palette, `variant` compact (swatches) or table. */
export const Color: ComponentRenderer = (props, children) => {
  const variant = textProp(props, 'variant') === 'table' ? 'table' : 'compact';
  return el('div', { className: ['enclave-color', `enclave-color-variant-${variant}`] }, children);
};

/** `Color.Row`: a titled row of colours. */
export const ColorRow: ComponentRenderer = (props, children) =>
  el('div', { className: ['enclave-color-row'] }, [
    textProp(props, 'title') ? el('p', { className: ['enclave-color-row-title'] }, textProp(props, 'title') ?? '') : null,
    el('div', { className: ['enclave-color-row-items'] }, children),
  ]);

/** `Color.Item`: one swatch with `name` and `value`; clicking copies the value. */
export const ColorItem: ComponentRenderer = (props) => {
  const { light, dark } = colorValues(props);
  const name = textProp(props, 'name') ?? '';
  const shown = light === dark ? (light ?? '') : `${light ?? ''} / ${dark ?? ''}`;
  return el(
    'button',
    {
      type: 'button',
      className: ['enclave-color-item'],
      dataEnclaveCopyText: light ?? '',
      ariaLabel: `Copy ${name} ${light ?? ''}`.trim(),
    },
    [
      el('span', {
        className: ['enclave-color-swatch'],
        style: `--swatch-light:${light ?? 'transparent'};--swatch-dark:${dark ?? 'transparent'}`,
      }),
      name ? el('span', { className: ['enclave-color-name'] }, name) : null,
      el('code', { className: ['enclave-color-value'] }, shown),
    ],
  );
};
