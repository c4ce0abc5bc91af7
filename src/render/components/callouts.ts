import type { ComponentRenderer } from '../types.js';
import { renderIcon } from '../icons/renderIcon.js';
import { el } from './buildElement.js';
import { colorProp } from './readProps.js';
import { propIcon } from './propIcon.js';

/** Callout kinds with their default icon and the label read to screen readers. */
const KINDS = {
  note: { icon: 'circle-info', label: 'Note' },
  tip: { icon: 'lightbulb', label: 'Tip' },
  info: { icon: 'circle-info', label: 'Info' },
  warning: { icon: 'triangle-exclamation', label: 'Warning' },
  check: { icon: 'circle-check', label: 'Check' },
  danger: { icon: 'circle-exclamation', label: 'Danger' },
  callout: { icon: 'circle-info', label: 'Callout' },
} as const;

/** A callout renderer (`Note`, `Tip`, …, or the generic `Callout` with its own `icon` and `color`). */
export function calloutRenderer(kind: keyof typeof KINDS): ComponentRenderer {
  const { icon, label } = KINDS[kind];
  return (props, children, ctx) => {
    const color = colorProp(props, 'color');
    const glyph = propIcon(props, ctx, 16) ?? renderIcon(icon, ctx, { size: 16 });
    return el(
      'aside',
      {
        className: ['enclave-callout', `enclave-callout-${kind}`],
        role: 'note',
        ariaLabel: label,
        style: color ? `--enclave-callout-color:${color}` : undefined,
      },
      [el('span', { className: ['enclave-callout-icon'] }, glyph), el('div', { className: ['enclave-callout-content'] }, children)],
    );
  };
}
