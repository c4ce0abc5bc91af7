// size: one converter from mdast to hast; its cases share scope, budget and the component registry
import type * as ES from 'estree-jsx';
import type { Root as MdRoot, Nodes as MdNodes, Parents as MdParents } from 'mdast';
import type { MdxJsxAttribute, MdxJsxExpressionAttribute } from 'mdast-util-mdx-jsx';
import type { Element, Root, Text } from 'hast';
import { splitBlockParagraph } from './splitBlockParagraph.js';
import { defaultHandlers, toHast, type Handlers, type State } from 'mdast-util-to-hast';
import type { CodeBlockInput, ComponentRenderer, ElementContent, RenderContext } from '../types.js';
import {
  callStaticFunction,
  evaluateExpression,
  HastFragment,
  StaticFunction,
  Unevaluable,
  type EvalBudget,
  type EvalHooks,
  type Scope,
} from './evaluateEstree.js';
import { evaluateModule, type FeatureContext } from './evaluateModule.js';
import { jsxText, propsToProperties, valueToHast } from './jsxValues.js';
import { interactivePlaceholder, staticHookOutput } from './renderHookComponent.js';
import { esmSource, MissingImport, SnippetComponent, type LoadedModule, type ModuleLoader } from './ModuleLoader.js';
import { parseExpressionSource } from './parseExpressionSource.js';

/** Site-wide collaborators of the converter. */
export interface ConverterDeps {
  components: Record<string, ComponentRenderer>;
  highlight(input: CodeBlockInput, ctx: RenderContext): ElementContent;
  renderMath(tex: string, display: boolean, ctx: RenderContext): ElementContent;
  loader: ModuleLoader;
}

const MAX_SNIPPET_DEPTH = 16;
const HEADING_ID = /[ \t]*\{#([A-Za-z0-9_:.-]+)\}[ \t]*$/;
/** Line endings as trim-lines finds them (mdast-util-to-hast's text handler). */
const LINE_ENDING = /[\r\n]/;

/**
 * Converts a page's mdast to hast without compiling MDX to JavaScript: JSX elements go through
 * the component registry (or page/snippet-defined components evaluated statically), expressions
 * are evaluated statically, and snippets are inlined with their props.
 */
// size: one case per mdast node kind, sharing the evaluation budget and scope; a converter's dispatch reads best as one switch
export function mdastToHast(root: MdRoot, file: string, ctx: RenderContext, deps: ConverterDeps): Root {
  const budget: EvalBudget = { steps: 0, depth: 0 };
  const warn = (message: string) => ctx.report.warning(message);
  let state: State | undefined;
  let scope: Scope = new Map();
  let snippetProps: Record<string, unknown> | null = null;
  let snippetDepth = 0;

  const hooks: EvalHooks = { renderJsx: (node, s) => renderEstreeJsx(node, s) };
  const mctx: FeatureContext = { loader: deps.loader, hooks, budget, warn, cache: new Map() };

  const evaluate = (expr: ES.Node, s: Scope): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: evaluateExpression(expr, s, hooks, budget) };
    } catch (err) {
      if (!(err instanceof Unevaluable)) throw err;
      warn(`could not evaluate an expression: ${err.message}`);
      return { ok: false };
    }
  };

  // An expression that does not parse is an author's mistake whose text would vanish from the
  // page without a trace for readers: the page fails (listed, deploy refused) unless the admin
  // chose to ship such losses as warnings.
  const parsedOrWarn = (parse: () => ES.Expression | null): ES.Expression | null => {
    try {
      return parse();
    } catch (err) {
      const message = `invalid expression: ${(err as Error).message}`;
      if (!ctx.shipsWarnings) throw new Error(`${message} (its content would be dropped; fix it, or export with shipWarnings)`);
      warn(message);
      return null;
    }
  };

  /** Looks a JSX name up in scope, including member names like `Tree.Folder`. */
  const lookup = (name: string, s: Scope): unknown => {
    const [head, ...rest] = name.split('.');
    let value: unknown = s.get(head);
    for (const part of rest)
      value = value && typeof value === 'object' && Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : undefined;
    return value;
  };

  const renderSnippet = (mod: LoadedModule, props: Record<string, unknown>): ElementContent[] => {
    if (!mod.root || !state) return [];
    if (snippetDepth >= MAX_SNIPPET_DEPTH) {
      warn(`snippets nested deeper than ${MAX_SNIPPET_DEPTH} (${mod.file})`);
      return [];
    }
    const own = evaluateModule(mod, mctx).scope;
    const saved = { scope, snippetProps };
    scope = new Map([...own, ...Object.entries(props), ['props', props]]);
    snippetProps = props;
    snippetDepth++;
    try {
      return state.all(mod.root) as ElementContent[];
    } finally {
      snippetDepth--;
      ({ scope, snippetProps } = saved);
    }
  };

  const renderComponent = (name: string, props: Record<string, unknown>, children: ElementContent[], s: Scope): ElementContent[] => {
    if (/^[a-z]/.test(name) && !name.includes('.')) {
      return [{ type: 'element', tagName: name, properties: propsToProperties(props), children }];
    }
    const local = lookup(name, s);
    if (local !== undefined) {
      if (local instanceof StaticFunction) {
        // A component that needs a browser runs there as an island; its first render, evaluated
        // here, is what shows until it hydrates (nothing when that render needs the browser too).
        const island = ctx.islands?.prepare(name, local, props, warn) ?? null;
        const outer = budget.reactHooks;
        const used = new Set<string>();
        budget.reactHooks = used;
        try {
          const out = valueToHast(callStaticFunction(local, [{ ...props, children: new HastFragment(children) }], hooks, budget), warn);
          if (island) return [island(out, children)];
          return used.size ? staticHookOutput(name, used, out, warn) : out;
        } catch (err) {
          if (!(err instanceof Unevaluable)) throw err;
          if (island) return [island([], children)];
          if (used.size) return [interactivePlaceholder(name, used, `${err.message}`, warn)];
          warn(`component ${name} could not be evaluated (${err.message}); rendered its children`);
          return children;
        } finally {
          for (const h of used) outer?.add(h);
          budget.reactHooks = outer;
        }
      }
      if (local instanceof SnippetComponent) return renderSnippet(local.module, props);
      if (local instanceof MissingImport) return children;
      if (local instanceof HastFragment) return local.nodes;
    }
    const builtin = Object.hasOwn(deps.components, name) ? deps.components[name] : undefined;
    if (builtin) {
      try {
        const out = builtin(props, children, ctx);
        return Array.isArray(out) ? out : [out];
      } catch (err) {
        warn(`component ${name} failed: ${(err as Error).message}`);
        return children;
      }
    }
    if (name === 'Snippet' && typeof props.file === 'string') {
      try {
        const { file: f, ...rest } = props;
        return renderSnippet(deps.loader.load(`snippets/${String(f).replace(/^\/?(?:snippets\/)?/, '')}`), rest);
      } catch (err) {
        warn((err as Error).message);
        return children;
      }
    }
    ctx.report.unknownComponent(name);
    return children;
  };

  const mdastProps = (attributes: (MdxJsxAttribute | MdxJsxExpressionAttribute)[]): Record<string, unknown> => {
    const props: Record<string, unknown> = {};
    for (const attr of attributes) {
      if (attr.type === 'mdxJsxExpressionAttribute') {
        const expr = parsedOrWarn(() => expressionOf(attr, true));
        const r = expr ? evaluate(expr, scope) : { ok: false as const };
        if (r.ok && r.value && typeof r.value === 'object') Object.assign(props, r.value);
        continue;
      }
      if (attr.value === null || attr.value === undefined) props[attr.name] = true;
      else if (typeof attr.value === 'string') props[attr.name] = attr.value;
      else {
        const value = attr.value;
        const expr = parsedOrWarn(() => expressionOf(value));
        if (!expr) continue;
        const r = evaluate(expr, scope);
        if (r.ok) props[attr.name] = r.value;
      }
    }
    return props;
  };

  const renderEstreeJsx = (node: ES.JSXElement | ES.JSXFragment, s: Scope): ElementContent[] => {
    const children: ElementContent[] = [];
    for (const child of node.children) {
      if (child.type === 'JSXText') {
        const text = jsxText(child.value);
        if (text) children.push({ type: 'text', value: text });
      } else if (child.type === 'JSXExpressionContainer') {
        if (child.expression.type === 'JSXEmptyExpression') continue;
        const r = evaluate(child.expression, s);
        if (r.ok) children.push(...valueToHast(r.value, warn));
      } else if (child.type === 'JSXElement' || child.type === 'JSXFragment') {
        children.push(...renderEstreeJsx(child, s));
      }
    }
    if (node.type === 'JSXFragment') return children;
    const props: Record<string, unknown> = {};
    for (const attr of node.openingElement.attributes) {
      if (attr.type === 'JSXSpreadAttribute') {
        const r = evaluate(attr.argument, s);
        if (r.ok && r.value && typeof r.value === 'object') Object.assign(props, r.value);
        continue;
      }
      const key = attr.name.type === 'JSXIdentifier' ? attr.name.name : `${attr.name.namespace.name}:${attr.name.name.name}`;
      const v = attr.value;
      if (v === null || v === undefined) props[key] = true;
      else if (v.type === 'Literal') props[key] = v.value;
      else if (v.type === 'JSXExpressionContainer') {
        if (v.expression.type === 'JSXEmptyExpression') continue;
        const r = evaluate(v.expression, s);
        if (r.ok) props[key] = r.value;
      } else props[key] = new HastFragment(renderEstreeJsx(v as ES.JSXElement, s));
    }
    return renderComponent(jsxName(node.openingElement.name), props, children, s);
  };

  const substitute = (value: string): string => {
    if (!snippetProps) return value;
    const props = snippetProps;
    return value.replace(/\{([A-Za-z_$][\w$]*)\}/g, (whole, key: string) =>
      Object.hasOwn(props, key) && (typeof props[key] === 'string' || typeof props[key] === 'number') ? String(props[key]) : whole,
    );
  };

  const expressionHandler = (st: State, node: MdNodes): ElementContent[] => {
    state = st;
    const expr = parsedOrWarn(() => expressionOf(node as { value?: unknown; data?: { estree?: ES.Program | null } }));
    if (!expr) return [];
    const r = evaluate(expr, scope);
    return r.ok ? valueToHast(r.value, warn) : [];
  };

  const jsxHandler = (st: State, node: MdNodes): ElementContent[] => {
    state = st;
    const el = node as MdNodes & { name: string | null; attributes: (MdxJsxAttribute | MdxJsxExpressionAttribute)[] };
    const props = mdastProps(el.attributes);
    const children = st.all(el as MdParents) as ElementContent[];
    if (!el.name) return children;
    return renderComponent(el.name, props, children, scope);
  };

  const drop = () => undefined;
  const handlers: Handlers = {
    mdxjsEsm: drop,
    yaml: drop,
    mdxFlowExpression: expressionHandler,
    mdxTextExpression: expressionHandler,
    mdxJsxFlowElement: jsxHandler,
    mdxJsxTextElement: jsxHandler,
    code(st, node) {
      state = st;
      const input: CodeBlockInput = { lang: node.lang ?? null, meta: node.meta ?? null, value: substitute(node.value) };
      try {
        return deps.highlight(input, ctx) as Element;
      } catch (err) {
        warn(`code block could not be highlighted: ${(err as Error).message}`);
        return {
          type: 'element',
          tagName: 'pre',
          properties: {},
          children: [{ type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: input.value }] }],
        };
      }
    },
    text(st, node) {
      // The default handler trims spaces around line endings with a regex and an array per node;
      // most text nodes have no line ending, and for those its result is the text as it is.
      if (LINE_ENDING.test(node.value)) return defaultHandlers.text(st, node);
      const result: Text = { type: 'text', value: node.value };
      st.patch(node, result);
      return st.applyData(node, result);
    },
    inlineCode(st, node) {
      state = st;
      return { type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: substitute(node.value) }] };
    },
    math(st, node) {
      state = st;
      return deps.renderMath(node.value, true, ctx) as Element;
    },
    inlineMath(st, node) {
      state = st;
      return deps.renderMath(node.value, false, ctx) as Element;
    },
    paragraph(st, node) {
      state = st;
      return splitBlockParagraph(defaultHandlers.paragraph(st, node));
    },
    heading(st, node) {
      state = st;
      const el = defaultHandlers.heading(st, node);
      const last = el.children[el.children.length - 1];
      if (last?.type === 'text') {
        const m = HEADING_ID.exec(last.value);
        if (m) {
          last.value = last.value.slice(0, m.index);
          el.properties.id = m[1];
        }
      }
      return el;
    },
  };

  const pageStatements = root.children.flatMap((n) => (n.type === 'mdxjsEsm' && n.data?.estree ? (n.data.estree.body as ES.Node[]) : []));
  scope = evaluateModule({ file, statements: pageStatements, source: esmSource(root) }, mctx).scope;
  // toHast first walks the whole tree only to find link and footnote definitions, with
  // unist-util-visit (an array of ancestors built per node), a visible cost per page. It is
  // handed an empty stand-in root instead; the root handler collects the definitions in one plain
  // pass, as toHast would have, then converts the real tree.
  const standIn: MdRoot = { type: 'root', children: [] };
  // (Typed as the library types its own root handler: it returns a root, not element content.)
  handlers.root = ((st: State, node: MdRoot) => {
    if (node !== standIn) return defaultHandlers.root(st, node);
    collectDefinitions(root, st);
    return defaultHandlers.root(st, root);
  }) as unknown as NonNullable<Handlers['root']>;
  return toHast(standIn, { handlers, allowDangerousHtml: true }) as Root;
}

/** Link and footnote definitions by upper-cased identifier, the first of each in document order wins (as toHast's own pass). */
function collectDefinitions(node: MdNodes, state: State): void {
  if (node.type === 'definition' || node.type === 'footnoteDefinition') {
    const id = String(node.identifier).toUpperCase();
    if (node.type === 'definition') {
      if (!state.definitionById.has(id)) state.definitionById.set(id, node);
    } else if (!state.footnoteById.has(id)) state.footnoteById.set(id, node);
  }
  if ('children' in node) for (const child of node.children) collectDefinitions(child as MdNodes, state);
}

/** The expression inside an MDX `{…}` program, or null for comments-only programs. */
function programExpression(program: ES.Program | null | undefined): ES.Expression | null {
  const first = program?.body[0];
  return first && first.type === 'ExpressionStatement' ? first.expression : null;
}

/** The estree of an expression node, parsing its source text when the fast parser left it unparsed. */
function expressionOf(node: { value?: unknown; data?: { estree?: ES.Program | null } }, spread = false): ES.Expression | null {
  if (node.data?.estree) return programExpression(node.data.estree);
  return typeof node.value === 'string' ? parseExpressionSource(spread ? `{${node.value}}` : node.value) : null;
}

function jsxName(name: ES.JSXIdentifier | ES.JSXMemberExpression | ES.JSXNamespacedName): string {
  if (name.type === 'JSXIdentifier') return name.name;
  if (name.type === 'JSXNamespacedName') return `${name.namespace.name}:${name.name.name}`;
  return `${jsxName(name.object)}.${name.property.name}`;
}
