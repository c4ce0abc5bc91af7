import { ENGLISH_INTERFACE } from '../theme/interfaceTranslations.js';
import type { Element, ElementContent, RenderContext } from '../types.js';
import { el } from '../components/buildElement.js';
import type { AuthUse } from './securityHeaders.js';

/** What the request builder needs to know about one operation. */
export interface TryItInput {
  method: string;
  path: string;
  /** From the spec's `servers`; the reader may type any other base URL. */
  servers: string[];
  auth: AuthUse[];
  params: { name: string; in: 'path' | 'query' | 'header'; required: boolean; example?: string }[];
  body?: { mediaType: string; example: string };
}

/**
 * The "Try it" request builder of an API page: a form with the base URL (the spec's servers
 * offered, any other typed), credentials, parameters and body. Static markup: the bundled
 * playground script (`assets/playground.js`) sends it from the reader's browser to the URL the
 * reader chose, and nowhere else.
 */
// size: builds one form in the order the reader sees it (server, auth, parameters, body, send)
export function buildTryIt(input: TryItInput, ctx: RenderContext): Element {
  ctx.tryIt?.(input.servers);
  const id = ctx.nextId('try');
  const ui = ctx.text ?? ENGLISH_INTERFACE;
  const field = (label: string, control: Element): Element =>
    el('label', { className: ['enclave-try-field'] }, [el('span', {}, label), control]);
  const textInput = (where: string, name: string, opts: { required?: boolean; placeholder?: string; value?: string }): Element =>
    el('input', {
      type: 'text',
      dataTryIn: where,
      dataTryName: name,
      required: opts.required || undefined,
      placeholder: opts.placeholder,
      value: opts.value,
      autocomplete: 'off',
      spellcheck: 'false',
    });
  const fieldset = (legend: string, rows: ElementContent[]): Element | null =>
    rows.length > 0 ? el('fieldset', {}, [el('legend', {}, legend), ...rows]) : null;

  const auth = input.auth
    .filter((a) => a.location !== 'cookie')
    .map((a) => field(a.name, textInput(a.location, a.name, { placeholder: a.placeholder })));
  const group = (where: 'path' | 'query' | 'header') =>
    input.params
      .filter((p) => p.in === where)
      .map((p) => field(`${p.name}${p.required ? ' *' : ''}`, textInput(where, p.name, { required: p.required, placeholder: p.example })));

  return el(
    'details',
    {
      className: ['enclave-try'],
      dataEnclaveTry: '',
      dataMethod: input.method.toUpperCase(),
      dataPath: input.path,
      // Why the playground can't send from a page opened as a file; the script shows it there.
      dataFileNotice: ui.apiFileNotice,
    },
    [
      el('summary', {}, [
        el('span', { className: ['enclave-api-method', `enclave-api-method-${input.method.toLowerCase()}`] }, input.method.toUpperCase()),
        ` ${ui.apiTryIt}`,
      ]),
      el('form', { className: ['enclave-try-form'], noValidate: true }, [
        el('p', { className: ['enclave-try-note'] }, ui.apiTryNote),
        field(
          ui.apiServer,
          el('input', {
            type: 'url',
            dataTryServer: '',
            list: `${id}-servers`,
            value: input.servers[0],
            placeholder: 'https://api.internal.example',
            required: true,
            autocomplete: 'url',
            spellcheck: 'false',
          }),
        ),
        input.servers.length > 0
          ? el(
              'datalist',
              { id: `${id}-servers` },
              input.servers.map((s) => el('option', { value: s })),
            )
          : null,
        fieldset(ui.apiAuthorization, auth),
        fieldset(ui.apiPath, group('path')),
        fieldset(ui.apiQuery, group('query')),
        fieldset(ui.apiHeaders, group('header')),
        input.body
          ? field(
              `${ui.apiBody} (${input.body.mediaType})`,
              el(
                'textarea',
                {
                  dataTryBody: '',
                  dataMediaType: input.body.mediaType,
                  rows: Math.min(12, input.body.example.split('\n').length + 1),
                  spellcheck: 'false',
                },
                input.body.example,
              ),
            )
          : null,
        el('button', { type: 'submit', className: ['enclave-try-send'] }, ui.send),
      ]),
      el('div', { className: ['enclave-try-response'], hidden: true, ariaLive: 'polite' }, [
        el('p', { className: ['enclave-try-status'] }),
        el('pre', { className: ['enclave-try-output'], tabIndex: 0 }, el('code', {})),
      ]),
    ],
  );
}
