import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { buildTabs } from './buildTabs.js';
import { codeTabItems } from './codeTabItems.js';
import { boolProp } from './readProps.js';

/** `RequestExample` / `ResponseExample`: code examples the theme shows beside an API page (tabs when several). */
export function exampleRenderer(kind: 'request' | 'response'): ComponentRenderer {
  const label = kind === 'request' ? 'Request example' : 'Response example';
  return (props, children, ctx) => {
    const items = codeTabItems(children);
    const body =
      items.length > 1
        ? buildTabs(items, ctx, { className: ['enclave-codegroup'], syncGroup: 'code', dropdown: boolProp(props, 'dropdown'), label })
        : children;
    return el(
      'aside',
      {
        className: ['enclave-example', `enclave-${kind}-example`],
        ariaLabel: label,
        [kind === 'request' ? 'dataEnclaveRequestExample' : 'dataEnclaveResponseExample']: '',
      },
      body,
    );
  };
}
