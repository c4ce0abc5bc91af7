import { ENGLISH_INTERFACE, type InterfaceText } from '../theme/interfaceTranslations.js';
import type { Element, ElementContent } from '../types.js';
import { el } from './buildElement.js';

/** The facts shown in the header of a parameter or response field. */
export interface FieldRow {
  name: string;
  type?: string;
  /** Where a request parameter goes: query, path, body, header, cookie. */
  location?: string;
  required?: boolean;
  deprecated?: boolean;
  default?: string;
  placeholder?: string;
  /** Extra labels before/after the name (ResponseField `pre` / `post`). */
  pre?: string[];
  post?: string[];
  body: ElementContent[];
  /** Anchor id so a field can be linked to. */
  id?: string;
  /** Anchor requested for the field, kept only if the page has no such id yet (see componentAnchors.ts). */
  anchor?: string;
}

const tag = (cls: string, text: string): Element => el('span', { className: ['enclave-field-tag', cls] }, text);

/**
 * One documented field (ParamField, ResponseField, and OpenAPI parameters/properties share this);
 * its required/deprecated tags in the page's interface language.
 */
export function buildFieldRow(row: FieldRow, ui: InterfaceText = ENGLISH_INTERFACE): Element {
  return el(
    'div',
    {
      className: ['enclave-field', row.deprecated ? 'enclave-field-is-deprecated' : ''].filter(Boolean),
      id: row.id,
      dataEnclaveAnchor: row.anchor,
    },
    [
      el('div', { className: ['enclave-field-head'] }, [
        ...(row.pre ?? []).map((p) => tag('enclave-field-pre', p)),
        el('code', { className: ['enclave-field-name'] }, row.name),
        row.type ? tag('enclave-field-type', row.type) : null,
        row.location ? tag('enclave-field-location', row.location) : null,
        ...(row.post ?? []).map((p) => tag('enclave-field-post', p)),
        row.required ? tag('enclave-field-required', ui.apiRequired) : null,
        row.deprecated ? tag('enclave-field-deprecated', ui.apiDeprecated) : null,
        row.default !== undefined ? el('span', { className: ['enclave-field-default'] }, ['default: ', el('code', {}, row.default)]) : null,
        row.placeholder ? el('span', { className: ['enclave-field-placeholder'] }, ['e.g. ', el('code', {}, row.placeholder)]) : null,
      ]),
      row.body.length > 0 ? el('div', { className: ['enclave-field-body'] }, row.body) : null,
    ],
  );
}
