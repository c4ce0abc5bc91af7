import { ENGLISH_INTERFACE } from '../theme/interfaceTranslations.js';
import type { CodeBlockInput, Element, ElementContent, RenderContext } from '../types.js';
import { el } from '../components/buildElement.js';
import { buildFieldRow } from '../components/buildFieldRow.js';
import { exampleRenderer } from '../components/examples.js';
import { buildCodeFigure } from '../code/buildCodeFigure.js';
import { parseCodeMeta } from '../code/parseCodeMeta.js';
import { extractNotation } from '../code/extractNotation.js';
import { isObject, type Json, type JsonObject, type OpenApiDocument } from './OpenApiDocument.js';
import { findOperation } from './findOperation.js';
import { operationParameters } from './operationParameters.js';
import { resolveRef } from './resolveRef.js';
import { renderDescription, renderInlineMarkdown } from './renderDescription.js';
import { fieldAnchor } from '../components/componentAnchors.js';
import { renderSchemaFields } from './renderSchemaFields.js';
import { schemaTypeLabel } from './schemaTypeLabel.js';
import { exampleFromSchema } from './exampleFromSchema.js';
import { buildCurlExample } from './buildCurlExample.js';
import { renderAuthRows, securityUses } from './securityHeaders.js';
import { serverUrls } from './serverUrls.js';
import { buildTryIt } from './buildTryIt.js';

/** Extras for API pages; pass the site's highlighter so examples look like every other code block. */
export interface RenderOperationOptions {
  highlight?: (input: CodeBlockInput, ctx: RenderContext) => ElementContent;
  /** A written page's own text (`openapi:` frontmatter): the hosted layout puts it under the method bar. */
  pageContent?: ElementContent[];
}

const LOCATIONS = [
  ['path', 'apiPathParameters'],
  ['query', 'apiQueryParameters'],
  ['header', 'apiHeaderParameters'],
  ['cookie', 'apiCookieParameters'],
] as const;

/** A code block, highlighted when a highlighter was given, else the same figure markup uncoloured. */
function codeBlock(input: CodeBlockInput, ctx: RenderContext, opts: RenderOperationOptions): ElementContent {
  if (opts.highlight) return opts.highlight(input, ctx);
  const { code, marks } = extractNotation(input.value);
  return buildCodeFigure({
    lines: code.split('\n').map((l) => (l ? [l] : [])),
    lang: input.lang,
    meta: parseCodeMeta(input.meta),
    marks,
    isDiff: false,
    ctx,
  });
}

/** A media type to show: JSON when offered, else the first. */
function pickMedia(content: Json | undefined): [string, JsonObject] | undefined {
  if (!isObject(content)) return undefined;
  const entries = Object.entries(content).filter((e): e is [string, JsonObject] => isObject(e[1]));
  return entries.find(([t]) => /json/i.test(t)) ?? entries[0];
}

/** Named examples of a media type (`example`, then `examples`), values resolved. */
function mediaExamples(doc: OpenApiDocument, media: JsonObject): [string, Json][] {
  if (media.example !== undefined) return [['Example', media.example]];
  if (!isObject(media.examples)) return [];
  return Object.entries(media.examples).flatMap(([name, raw]): [string, Json][] => {
    const ex = resolveRef(doc, raw).value;
    return isObject(ex) && ex.value !== undefined ? [[typeof ex.summary === 'string' ? ex.summary : name, ex.value]] : [];
  });
}

const asText = (v: Json): string => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

function section(id: string, title: string, children: ElementContent[]): Element {
  return el('section', { className: ['enclave-api-section'], ariaLabelledby: id }, [el('h2', { id }, title), ...children]);
}

/** The body of an API page for one operation: endpoint, auth, parameters, body, responses and examples. */
// size: the sections of an API page in the order they appear (endpoint, auth, parameters, body, responses, examples)
export function renderOperation(
  doc: OpenApiDocument,
  method: string,
  path: string,
  ctx: RenderContext,
  opts: RenderOperationOptions = {},
): ElementContent[] {
  const found = findOperation(doc, method, path);
  if (!found) {
    ctx.report.warning(`OpenAPI operation ${method.toUpperCase()} ${path} not found in ${doc.ref}`, ctx.pagePath);
    return [el('p', { className: ['enclave-api-missing'] }, `${method.toUpperCase()} ${path} is not in ${doc.ref}.`)];
  }
  const { operation: op, pathItem, httpMethod } = found;
  const isWebhook = found.method === 'webhook';
  const servers = isWebhook ? [] : serverUrls(doc, op, pathItem);
  const base = servers[0] ?? '';
  const out: ElementContent[] = [];
  const side: ElementContent[] = [];
  const ui = ctx.text ?? ENGLISH_INTERFACE;

  out.push(
    el('div', { className: ['enclave-api-endpoint'] }, [
      el(
        'span',
        { className: ['enclave-api-method', `enclave-api-method-${httpMethod}`] },
        isWebhook ? `WEBHOOK ${httpMethod.toUpperCase()}` : httpMethod.toUpperCase(),
      ),
      base ? el('span', { className: ['enclave-api-server'] }, base) : null,
      el('span', { className: ['enclave-api-path'] }, found.path),
      op.deprecated === true
        ? el(
            'span',
            { className: ['enclave-badge', 'enclave-badge-color-orange', 'enclave-badge-size-sm', 'enclave-api-deprecated'] },
            ui.apiDeprecated,
          )
        : null,
    ]),
  );
  out.push(...renderDescription(op.description ?? pathItem.description, ctx));
  out.push(...(opts.pageContent ?? []));

  const auth = isWebhook ? [] : securityUses(doc, op);
  if (auth.length > 0) out.push(section('authorizations', ui.apiAuthorizations, renderAuthRows(auth, ctx)));

  const params = operationParameters(doc, op, pathItem);
  for (const [where, titleKey] of LOCATIONS) {
    const title = ui[titleKey];
    const rows = params
      .filter((p) => p.in === where)
      .map((p) => {
        const schema = p.schema ?? (isObject(p.content) ? pickMedia(p.content)?.[1].schema : undefined);
        const s = resolveRef(doc, schema).value;
        const body = [
          ...renderDescription(p.description, ctx),
          ...(isObject(s) && isObject(s.properties) ? renderSchemaFields(doc, schema, { mode: 'request', ctx, depth: 1, seen: [] }) : []),
        ];
        if (isObject(s) && Array.isArray(s.enum))
          body.push(
            el('p', { className: ['enclave-api-enum'] }, [
              'Available options: ',
              ...s.enum.flatMap((v, i) => [i > 0 ? ', ' : '', el('code', {}, asText(v))]),
            ]),
          );
        return buildFieldRow(
          {
            name: String(p.name),
            location: where,
            type: schemaTypeLabel(doc, schema),
            required: p.required === true || where === 'path',
            deprecated: p.deprecated === true,
            default: isObject(s) && s.default !== undefined ? asText(s.default) : undefined,
            // Named as the hosted product names them, so links to `#param-limit` keep working.
            body,
            anchor: `param-${fieldAnchor({}, String(p.name)) ?? ''}`.replace(/-$/, ''),
          },
          ui,
        );
      });
    if (rows.length > 0) out.push(section(`${where}-parameters`, title, rows));
  }

  const requestBody = resolveRef(doc, op.requestBody).value;
  const reqMedia = isObject(requestBody) ? pickMedia(requestBody.content) : undefined;
  if (isObject(requestBody) && reqMedia) {
    const [mediaType, media] = reqMedia;
    out.push(
      section('body', ui.apiBody, [
        el('p', { className: ['enclave-api-media'] }, [
          el('code', {}, mediaType),
          requestBody.required === true ? ` · ${ui.apiRequired}` : '',
        ]),
        ...renderDescription(requestBody.description, ctx),
        ...renderSchemaFields(doc, media.schema, { mode: 'request', ctx, depth: 0, seen: [], anchor: 'body' }),
      ]),
    );
  }

  const responses = isObject(op.responses) ? Object.entries(op.responses) : [];
  const responseExamples: ElementContent[] = [];
  const responseParts: ElementContent[] = [];
  for (const [status, raw] of responses) {
    const r = resolveRef(doc, raw).value;
    if (!isObject(r)) continue;
    const picked = pickMedia(r.content);
    const klass = `enclave-api-status-s${status[0]}`;
    responseParts.push(
      el('div', { className: ['enclave-api-response'], dataStatus: status }, [
        el('h3', { id: `response-${status}`.replace(/[^\w-]/g, '-') }, [
          el('span', { className: ['enclave-api-status', klass] }, status),
          ' ',
          ...(typeof r.description === 'string' ? renderInlineMarkdown(r.description.trim().split('\n')[0], ctx) : []),
        ]),
        picked ? el('p', { className: ['enclave-api-media'] }, el('code', {}, picked[0])) : null,
        ...(picked ? renderSchemaFields(doc, picked[1].schema, { mode: 'response', ctx, depth: 0, seen: [], anchor: 'response' }) : []),
      ]),
    );
    if (picked) {
      const named = mediaExamples(doc, picked[1]);
      const examples: [string, Json][] =
        named.length > 0 ? named : picked[1].schema !== undefined ? [['', exampleFromSchema(doc, picked[1].schema)]] : [];
      for (const [name, value] of examples.slice(0, 10)) {
        const title = name && name !== 'Example' && named.length > 1 ? `${status} ${name}` : status;
        responseExamples.push(codeBlock({ lang: /json/i.test(picked[0]) ? 'json' : 'text', meta: title, value: asText(value) }, ctx, opts));
      }
    }
  }
  if (responseParts.length > 0) out.push(section('response', ui.apiResponse, responseParts));

  // Examples: a generated cURL call plus any `x-codeSamples`, then one response example per status.
  if (!isWebhook) {
    const samples: ElementContent[] = [];
    const reqExample = reqMedia ? (mediaExamples(doc, reqMedia[1])[0]?.[1] ?? exampleFromSchema(doc, reqMedia[1].schema)) : undefined;
    const headers: [string, string][] = [
      ...auth.filter((a) => a.location === 'header').map((a): [string, string] => [a.name, a.placeholder]),
      ...params
        .filter((p) => p.in === 'header' && p.required === true)
        .map((p): [string, string] => [String(p.name), `<${String(p.name).toLowerCase()}>`]),
    ];
    const query: [string, string][] = [
      ...auth.filter((a) => a.location === 'query').map((a): [string, string] => [a.name, a.placeholder]),
      ...params
        .filter((p) => p.in === 'query' && p.required === true)
        .map((p): [string, string] => [String(p.name), `<${String(p.name)}>`]),
    ];
    samples.push(
      codeBlock(
        {
          lang: 'bash',
          meta: 'cURL',
          value: buildCurlExample({
            method: httpMethod,
            url: `${base}${found.path}`,
            headers,
            query,
            mediaType: reqMedia?.[0],
            body: reqExample,
          }),
        },
        ctx,
        opts,
      ),
    );
    const custom = Array.isArray(op['x-codeSamples'])
      ? op['x-codeSamples']
      : Array.isArray(op['x-code-samples'])
        ? op['x-code-samples']
        : [];
    for (const sample of custom.slice(0, 20)) {
      if (!isObject(sample) || typeof sample.source !== 'string') continue;
      const lang = typeof sample.lang === 'string' ? sample.lang.toLowerCase() : 'text';
      samples.push(codeBlock({ lang, meta: typeof sample.label === 'string' ? sample.label : lang, value: sample.source }, ctx, opts));
    }
    const request = exampleRenderer('request')({}, samples, ctx);
    side.push(
      buildTryIt(
        {
          method: httpMethod,
          path: found.path,
          servers,
          auth,
          params: params.flatMap((p) =>
            p.in === 'path' || p.in === 'query' || p.in === 'header'
              ? [
                  {
                    name: String(p.name),
                    in: p.in,
                    required: p.required === true || p.in === 'path',
                    example: typeof p.example === 'string' || typeof p.example === 'number' ? String(p.example) : undefined,
                  },
                ]
              : [],
          ),
          body: reqMedia ? { mediaType: reqMedia[0], example: reqExample === undefined ? '' : asText(reqExample) } : undefined,
        },
        ctx,
      ),
    );
    side.push(...(Array.isArray(request) ? request : [request]));
  }
  if (responseExamples.length > 0) {
    const response = exampleRenderer('response')({}, responseExamples, ctx);
    side.push(...(Array.isArray(response) ? response : [response]));
  }
  ctx.assets.use('openapi');
  // The method + URL bar spans the page; the examples form a right-hand column on wide screens.
  const [endpoint, ...body] = out;
  return [
    el('div', { className: ['enclave-api'], dataEnclaveApi: '', dataMethod: found.method, dataPath: found.path }, [
      endpoint,
      el('div', { className: ['enclave-api-body'] }, body),
      side.length > 0 ? el('div', { className: ['enclave-api-examples'] }, side) : null,
    ]),
  ];
}
