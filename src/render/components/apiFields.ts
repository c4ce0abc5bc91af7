import type { ComponentProps, ComponentRenderer } from '../types.js';
import { boolProp, textProp } from './readProps.js';
import { buildFieldRow } from './buildFieldRow.js';
import { fieldAnchor } from './componentAnchors.js';

const LOCATIONS = ['query', 'path', 'body', 'header', 'cookie'] as const;

/** A default value as displayed: strings as-is, everything else as JSON. */
function defaultText(props: ComponentProps): string | undefined {
  const value = props.default;
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Labels given as a list (`pre={["a","b"]}`) or a single string. */
function labelList(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

/** `ParamField`: a request parameter; its name comes from whichever of query/path/body/header/cookie is set. */
export const ParamField: ComponentRenderer = (props, children, ctx) => {
  const location = LOCATIONS.find((l) => props[l] !== undefined);
  const name = (location && textProp(props, location)) || textProp(props, 'name') || '';
  return buildFieldRow(
    {
      name,
      anchor: fieldAnchor(props, name),
      location,
      type: textProp(props, 'type'),
      required: boolProp(props, 'required'),
      deprecated: boolProp(props, 'deprecated'),
      default: defaultText(props),
      placeholder: textProp(props, 'placeholder'),
      body: children,
    },
    ctx.text,
  );
};

/** `ResponseField`: a field of a response, with optional `pre`/`post` labels. */
export const ResponseField: ComponentRenderer = (props, children, ctx) => {
  const name = textProp(props, 'name') ?? '';
  return buildFieldRow(
    {
      name,
      anchor: fieldAnchor(props, name),
      type: textProp(props, 'type'),
      required: boolProp(props, 'required'),
      deprecated: boolProp(props, 'deprecated'),
      default: defaultText(props),
      pre: labelList(props.pre),
      post: labelList(props.post),
      body: children,
    },
    ctx.text,
  );
};
