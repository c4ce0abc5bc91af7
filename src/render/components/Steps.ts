import type { ComponentRenderer, Element } from '../types.js';
import { el } from './buildElement.js';
import { contentProp, numberProp, textProp } from './readProps.js';
import { propIcon } from './propIcon.js';
import { elementNodes } from './contentNodes.js';
import { titleAnchor } from './componentAnchors.js';

const TITLE_TAGS = new Set(['p', 'h2', 'h3', 'h4']);

/** `Step`: one numbered step with title (`titleSize` p/h2/h3), optional icon and explicit `stepNumber`. */
export const Step: ComponentRenderer = (props, children, ctx) => {
  const icon = propIcon(props, ctx, 14);
  const number = numberProp(props, 'stepNumber');
  const size = textProp(props, 'titleSize') ?? 'p';
  const title = contentProp(props, 'title');
  return el('li', { className: ['enclave-step'], dataEnclaveStep: '', dataStepNumber: number, dataEnclaveAnchor: titleAnchor(props) }, [
    el('div', { className: ['enclave-step-marker'], ariaHidden: 'true' }, icon ?? (number !== undefined ? String(number) : '')),
    el('div', { className: ['enclave-step-body'] }, [
      title ? el(TITLE_TAGS.has(size) ? size : 'p', { className: ['enclave-step-title'] }, title) : null,
      el('div', { className: ['enclave-step-content'] }, children),
    ]),
  ]);
};

/** `Steps`: an ordered list that numbers its `Step`s (an explicit `stepNumber` wins). */
export const Steps: ComponentRenderer = (props, children) => {
  let n = 0;
  for (const child of elementNodes(children)) {
    if (child.properties.dataEnclaveStep === undefined) continue;
    n = typeof child.properties.dataStepNumber === 'number' ? child.properties.dataStepNumber : n + 1;
    const marker = child.children[0] as Element | undefined;
    // Only fill markers Step left empty (no icon, no explicit number).
    if (marker?.type === 'element' && marker.children.length === 0) marker.children = [{ type: 'text', value: String(n) }];
    if (marker?.type === 'element') marker.properties.dataNumber = n;
  }
  const size = textProp(props, 'titleSize');
  return el('ol', { className: ['enclave-steps'], dataTitleSize: size }, children);
};
