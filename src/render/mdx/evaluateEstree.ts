// size: one interpreter for the static subset of JavaScript; its cases share scope and budget rules
import type * as ES from 'estree-jsx';
import type { ElementContent } from '../types.js';
import { firstRenderValue, reactHookName } from './staticReactHooks.js';

/** Thrown when an expression needs something we refuse to evaluate at build time. */
export class Unevaluable extends Error {
  override name = 'Unevaluable';
}

/** An arrow/function expression captured with its defining scope (a page- or snippet-defined component). */
export class StaticFunction {
  constructor(
    readonly params: ES.Pattern[],
    readonly body: ES.Expression | ES.BlockStatement,
    readonly scope: Scope,
  ) {}
}

/** A state setter or transition starter: called only from events, which a static page has none of. */
const NOOP = new StaticFunction([], { type: 'Identifier', name: 'undefined' }, new Map());

/** Already-rendered hast, the value of a JSX expression such as `icon={<svg …/>}`. */
export class HastFragment {
  constructor(readonly nodes: ElementContent[]) {}
}

/** Variables visible to an expression. */
export type Scope = ReadonlyMap<string, unknown>;

/** What the evaluator needs from the renderer: turning JSX into hast. */
export interface EvalHooks {
  renderJsx(node: ES.JSXElement | ES.JSXFragment, scope: Scope): ElementContent[];
}

/** Shared per page: bounds the total work so a hostile or recursive page can't hang the export. */
export interface EvalBudget {
  steps: number;
  depth: number;
  /** React hooks called by the component being rendered (see staticReactHooks.ts). */
  reactHooks?: Set<string>;
}

const MAX_STEPS = 200_000;
const MAX_DEPTH = 64;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Evaluates a side-effect-free subset of JavaScript (literals, objects, templates, JSX, arrow functions, a few pure built-ins). */
// size: one case per ESTree node kind of the evaluated subset; an interpreter's dispatch reads best as one switch
export function evaluateExpression(node: ES.Node, scope: Scope, hooks: EvalHooks, budget: EvalBudget): unknown {
  if (++budget.steps > MAX_STEPS) throw new Unevaluable('expression budget exhausted');
  switch (node.type) {
    case 'Literal':
      if ('regex' in node && node.regex) throw new Unevaluable('regular expressions are not evaluated');
      return node.value;
    case 'TemplateLiteral': {
      let out = node.quasis[0]?.value.cooked ?? '';
      node.expressions.forEach((e, i) => {
        out += String(evaluateExpression(e, scope, hooks, budget)) + (node.quasis[i + 1]?.value.cooked ?? '');
      });
      return out;
    }
    case 'Identifier':
      if (scope.has(node.name)) return scope.get(node.name);
      if (node.name === 'undefined') return undefined;
      throw new Unevaluable(`unknown identifier ${node.name}`);
    case 'ObjectExpression': {
      const out: Record<string, unknown> = {};
      for (const p of node.properties) {
        if (p.type === 'SpreadElement') {
          const v = evaluateExpression(p.argument, scope, hooks, budget);
          if (v && typeof v === 'object') Object.assign(out, v);
          continue;
        }
        const key = p.computed
          ? String(evaluateExpression(p.key, scope, hooks, budget))
          : p.key.type === 'Identifier'
            ? p.key.name
            : String((p.key as ES.Literal).value);
        if (FORBIDDEN_KEYS.has(key)) throw new Unevaluable(`property ${key}`);
        out[key] = evaluateExpression(p.value as ES.Expression, scope, hooks, budget);
      }
      return out;
    }
    case 'ArrayExpression':
      return node.elements.flatMap((e) => {
        if (!e) return [undefined];
        if (e.type === 'SpreadElement') return [...asArray(evaluateExpression(e.argument, scope, hooks, budget))];
        return [evaluateExpression(e, scope, hooks, budget)];
      });
    case 'MemberExpression': {
      if (node.object.type === 'Super') throw new Unevaluable('super');
      const obj = evaluateExpression(node.object, scope, hooks, budget);
      const key = node.computed
        ? evaluateExpression(node.property as ES.Expression, scope, hooks, budget)
        : (node.property as ES.Identifier).name;
      if (obj === null || obj === undefined) {
        if (node.optional) return undefined;
        throw new Unevaluable(`cannot read ${String(key)} of ${String(obj)}`);
      }
      return readProperty(obj, String(key));
    }
    case 'ChainExpression':
      return evaluateExpression(node.expression, scope, hooks, budget);
    case 'UnaryExpression': {
      const v = evaluateExpression(node.argument, scope, hooks, budget);
      switch (node.operator) {
        case '!':
          return !v;
        case '-':
          return -(v as number);
        case '+':
          return +(v as number);
        case 'typeof':
          return v instanceof StaticFunction ? 'function' : typeof v;
        case 'void':
          return undefined;
        default:
          throw new Unevaluable(`operator ${node.operator}`);
      }
    }
    case 'BinaryExpression': {
      if (node.left.type === 'PrivateIdentifier') throw new Unevaluable('private name');
      const a = evaluateExpression(node.left, scope, hooks, budget) as never;
      const b = evaluateExpression(node.right, scope, hooks, budget) as never;
      switch (node.operator) {
        case '+':
          return (a as number) + (b as number);
        case '-':
          return a - b;
        case '*':
          return a * b;
        case '/':
          return a / b;
        case '%':
          return a % b;
        case '===':
          return a === b;
        case '!==':
          return a !== b;
        case '==':
          // biome-ignore lint/suspicious/noDoubleEquals: the page's own == is evaluated as JavaScript does
          return a == b;
        case '!=':
          // biome-ignore lint/suspicious/noDoubleEquals: likewise !=
          return a != b;
        case '<':
          return a < b;
        case '>':
          return a > b;
        case '<=':
          return a <= b;
        case '>=':
          return a >= b;
        default:
          throw new Unevaluable(`operator ${node.operator}`);
      }
    }
    case 'LogicalExpression': {
      const a = evaluateExpression(node.left, scope, hooks, budget);
      if (node.operator === '&&') return a ? evaluateExpression(node.right, scope, hooks, budget) : a;
      if (node.operator === '||') return a ? a : evaluateExpression(node.right, scope, hooks, budget);
      return a ?? evaluateExpression(node.right, scope, hooks, budget);
    }
    case 'ConditionalExpression':
      return evaluateExpression(node.test, scope, hooks, budget)
        ? evaluateExpression(node.consequent, scope, hooks, budget)
        : evaluateExpression(node.alternate, scope, hooks, budget);
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
      return new StaticFunction(node.params, node.body, scope);
    case 'CallExpression':
      return evaluateCall(node, scope, hooks, budget);
    case 'JSXElement':
    case 'JSXFragment':
      return new HastFragment(hooks.renderJsx(node, scope));
    case 'SequenceExpression':
      return node.expressions.map((e) => evaluateExpression(e, scope, hooks, budget)).pop();
    default:
      throw new Unevaluable(`${node.type} is not evaluated at build time`);
  }
}

/** Calls a page-defined function with arguments, binding its parameters (destructuring and defaults included). */
export function callStaticFunction(fn: StaticFunction, args: unknown[], hooks: EvalHooks, budget: EvalBudget): unknown {
  if (++budget.depth > MAX_DEPTH) throw new Unevaluable('call depth exceeded');
  try {
    const local = new Map(fn.scope);
    for (let i = 0; i < fn.params.length; i++) bindPattern(fn.params[i], args[i], local, hooks, budget);
    if (fn.body.type !== 'BlockStatement') return evaluateExpression(fn.body, local, hooks, budget);
    for (const stmt of fn.body.body) {
      if (stmt.type === 'ReturnStatement') return stmt.argument ? evaluateExpression(stmt.argument, local, hooks, budget) : undefined;
      if (stmt.type === 'VariableDeclaration') {
        for (const d of stmt.declarations)
          bindPattern(d.id, d.init ? evaluateExpression(d.init, local, hooks, budget) : undefined, local, hooks, budget);
        continue;
      }
      // `useEffect(…)` on its own line: a hook call is the only statement run for its (lack of) effect.
      if (
        stmt.type === 'ExpressionStatement' &&
        stmt.expression.type === 'CallExpression' &&
        reactHookName(stmt.expression.callee, (n) => local.has(n))
      ) {
        evaluateExpression(stmt.expression, local, hooks, budget);
        continue;
      }
      throw new Unevaluable(`${stmt.type} inside a component body`);
    }
    return undefined;
  } finally {
    budget.depth--;
  }
}

/** Binds a destructuring pattern into `scope` (identifiers, object/array patterns, defaults, rest). */
export function bindPattern(p: ES.Pattern, value: unknown, scope: Map<string, unknown>, hooks: EvalHooks, budget: EvalBudget): void {
  switch (p.type) {
    case 'Identifier':
      scope.set(p.name, value);
      return;
    case 'AssignmentPattern':
      bindPattern(p.left, value === undefined ? evaluateExpression(p.right, scope, hooks, budget) : value, scope, hooks, budget);
      return;
    case 'ObjectPattern': {
      const obj = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
      const used = new Set<string>();
      for (const prop of p.properties) {
        if (prop.type === 'RestElement') {
          bindPattern(prop.argument, Object.fromEntries(Object.entries(obj).filter(([k]) => !used.has(k))), scope, hooks, budget);
          continue;
        }
        const key = prop.computed
          ? String(evaluateExpression(prop.key, scope, hooks, budget))
          : prop.key.type === 'Identifier'
            ? prop.key.name
            : String((prop.key as ES.Literal).value);
        used.add(key);
        bindPattern(prop.value, Object.hasOwn(obj, key) ? obj[key] : undefined, scope, hooks, budget);
      }
      return;
    }
    case 'ArrayPattern': {
      const arr = asArray(value ?? []);
      p.elements.forEach((el, i) => {
        if (!el) return;
        if (el.type === 'RestElement') bindPattern(el.argument, arr.slice(i), scope, hooks, budget);
        else bindPattern(el, arr[i], scope, hooks, budget);
      });
      return;
    }
    default:
      throw new Unevaluable(`pattern ${p.type}`);
  }
}

function asArray(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  throw new Unevaluable('not iterable');
}

function readProperty(obj: unknown, key: string): unknown {
  if (FORBIDDEN_KEYS.has(key)) throw new Unevaluable(`property ${key}`);
  if ((typeof obj === 'string' || Array.isArray(obj)) && key === 'length') return obj.length;
  if (typeof obj === 'string') return /^\d+$/.test(key) ? obj[Number(key)] : undefined;
  if (typeof obj === 'object' && obj !== null && !(obj instanceof StaticFunction) && Object.hasOwn(obj, key))
    return (obj as Record<string, unknown>)[key];
  return undefined;
}

/** Whitelisted pure methods; nothing here can reach the file system, the network or globals. */
// size: one case per whitelisted pure method; the whitelist reads best as one list
function evaluateCall(node: ES.CallExpression, scope: Scope, hooks: EvalHooks, budget: EvalBudget): unknown {
  const args = () =>
    node.arguments.map((a) =>
      a.type === 'SpreadElement'
        ? (() => {
            throw new Unevaluable('spread arguments');
          })()
        : evaluateExpression(a, scope, hooks, budget),
    );
  const callee = node.callee;
  const hook = reactHookName(callee, (name) => scope.has(name));
  if (hook) {
    budget.reactHooks?.add(hook);
    return firstRenderValue(hook, args(), {
      isCallable: (v) => v instanceof StaticFunction,
      call: (fn, a) => callStaticFunction(fn as StaticFunction, a, hooks, budget),
      noop: NOOP,
    });
  }
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') {
    const method = callee.property.name;
    if (callee.object.type === 'Identifier' && !scope.has(callee.object.name)) {
      const global = callGlobal(callee.object.name, method, args());
      if (global.ok) return global.value;
    }
    if (callee.object.type === 'Super') throw new Unevaluable('super');
    const target = evaluateExpression(callee.object, scope, hooks, budget);
    const fnArg =
      (v: unknown) =>
      (x: unknown, i: number): unknown =>
        v instanceof StaticFunction
          ? callStaticFunction(v, [x, i], hooks, budget)
          : (() => {
              throw new Unevaluable('callback is not a function');
            })();
    if (Array.isArray(target)) {
      const [a0, a1] = args();
      switch (method) {
        case 'map':
          return target.map(fnArg(a0));
        case 'filter':
          return target.filter(fnArg(a0));
        case 'find':
          return target.find(fnArg(a0));
        case 'some':
          return target.some(fnArg(a0));
        case 'every':
          return target.every(fnArg(a0));
        case 'join':
          return target.join(a0 === undefined ? ',' : String(a0));
        case 'includes':
          return target.includes(a0);
        case 'indexOf':
          return target.indexOf(a0);
        case 'slice':
          return target.slice(a0 as number, a1 as number);
        case 'concat':
          return target.concat(a0 as unknown[]);
        case 'flat':
          return target.flat();
        case 'reverse':
          return [...target].reverse();
        default:
          break;
      }
    }
    if (typeof target === 'string') {
      const [a0, a1] = args();
      switch (method) {
        case 'toUpperCase':
          return target.toUpperCase();
        case 'toLowerCase':
          return target.toLowerCase();
        case 'trim':
          return target.trim();
        case 'split':
          return target.split(String(a0));
        case 'slice':
          return target.slice(a0 as number, a1 as number);
        case 'substring':
          return target.substring(a0 as number, a1 as number);
        case 'includes':
          return target.includes(String(a0));
        case 'startsWith':
          return target.startsWith(String(a0));
        case 'endsWith':
          return target.endsWith(String(a0));
        case 'replace':
          return target.replace(String(a0), String(a1));
        case 'replaceAll':
          return target.replaceAll(String(a0), String(a1));
        case 'charAt':
          return target.charAt(a0 as number);
        case 'padStart':
          return target.padStart(Math.min(Number(a0), 1000), a1 === undefined ? ' ' : String(a1));
        case 'toString':
          return target;
        default:
          break;
      }
    }
    if (typeof target === 'number' && (method === 'toFixed' || method === 'toString')) {
      const [a0] = args();
      return method === 'toFixed' ? target.toFixed(Math.min(Number(a0 ?? 0), 20)) : target.toString();
    }
    throw new Unevaluable(`method ${method} is not evaluated at build time`);
  }
  if (callee.type === 'Identifier' && !scope.has(callee.name)) {
    const [a0] = args();
    if (callee.name === 'String') return String(a0);
    if (callee.name === 'Number') return Number(a0);
    if (callee.name === 'Boolean') return Boolean(a0);
  }
  const fn = callee.type === 'Super' ? undefined : evaluateExpression(callee, scope, hooks, budget);
  if (fn instanceof StaticFunction) return callStaticFunction(fn, args(), hooks, budget);
  throw new Unevaluable('call of something that is not a page-defined function');
}

function callGlobal(object: string, method: string, args: unknown[]): { ok: boolean; value?: unknown } {
  const a0 = args[0];
  if (object === 'Object' && a0 && typeof a0 === 'object') {
    if (method === 'keys') return { ok: true, value: Object.keys(a0) };
    if (method === 'values') return { ok: true, value: Object.values(a0) };
    if (method === 'entries') return { ok: true, value: Object.entries(a0) };
  }
  if (object === 'JSON' && method === 'stringify') return { ok: true, value: JSON.stringify(a0, null, args[2] as number | undefined) };
  if (object === 'Array' && method === 'isArray') return { ok: true, value: Array.isArray(a0) };
  if (object === 'Math' && ['min', 'max', 'round', 'floor', 'ceil', 'abs'].includes(method)) {
    return { ok: true, value: (Math[method as 'min'] as (...n: number[]) => number)(...(args as number[])) };
  }
  return { ok: false };
}
