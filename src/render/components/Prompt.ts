import type { ComponentRenderer } from '../types.js';
import { copyButton } from '../code/copyButton.js';
import { el } from './buildElement.js';
import { boolProp, contentProp } from './readProps.js';

/** `Prompt`: an AI prompt to copy, with a `description`; `copy={false}` hides the copy button. */
export const Prompt: ComponentRenderer = (props, children) => {
  const description = contentProp(props, 'description');
  return el('div', { className: ['enclave-prompt'], dataEnclavePrompt: '' }, [
    el('div', { className: ['enclave-prompt-header'] }, [
      description ? el('p', { className: ['enclave-prompt-description'] }, description) : null,
      boolProp(props, 'copy', true) ? copyButton('Copy prompt') : null,
    ]),
    el('div', { className: ['enclave-prompt-body'], dataEnclaveCopySource: '' }, children),
  ]);
};
