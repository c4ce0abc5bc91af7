import type * as ES from 'estree-jsx';

/** React hooks a page-defined component may call; each gets its first-render value at build time. */
const HOOKS = new Set([
  'useState',
  'useReducer',
  'useEffect',
  'useLayoutEffect',
  'useInsertionEffect',
  'useMemo',
  'useCallback',
  'useRef',
  'useId',
  'useContext',
  'useTransition',
  'useDeferredValue',
  'useSyncExternalStore',
]);

/** Hooks whose work happens only in a browser after the first render (data loading, timers, DOM). */
export const EFFECT_HOOKS = new Set(['useEffect', 'useLayoutEffect', 'useInsertionEffect', 'useSyncExternalStore']);

/** The hook a call names (`useState(…)` or `React.useState(…)`), unless the page defines that name itself. */
export function reactHookName(callee: ES.CallExpression['callee'], defined: (name: string) => boolean): string | undefined {
  let name: string | undefined;
  if (callee.type === 'Identifier') name = callee.name;
  else if (
    callee.type === 'MemberExpression' &&
    !callee.computed &&
    callee.object.type === 'Identifier' &&
    callee.object.name === 'React' &&
    !defined('React') &&
    callee.property.type === 'Identifier'
  )
    name = callee.property.name;
  return name && HOOKS.has(name) && !defined(name) ? name : undefined;
}

/**
 * What a hook returns on a component's first render, which is what a static page can show:
 * state is its initial value (setters do nothing: there are no events at build time), memos are
 * computed, refs hold their initial value, and effects don't run. `call` invokes a page-defined
 * function (a lazy initial state, a memo factory) when `isCallable` says the value is one.
 */
export function firstRenderValue(
  name: string,
  args: unknown[],
  fns: { isCallable: (v: unknown) => boolean; call: (fn: unknown, args: unknown[]) => unknown; noop: unknown },
): unknown {
  const { isCallable, call, noop } = fns;
  const [a0, a1] = args;
  switch (name) {
    case 'useState':
      return [isCallable(a0) ? call(a0, []) : a0, noop];
    case 'useReducer':
      return [args.length > 2 && isCallable(args[2]) ? call(args[2], [a1]) : a1, noop];
    case 'useMemo':
      return isCallable(a0) ? call(a0, []) : undefined;
    case 'useCallback':
      return a0;
    case 'useRef':
      return { current: a0 };
    case 'useId':
      return 'enclave-static-id';
    case 'useTransition':
      return [false, noop];
    case 'useDeferredValue':
      return a0;
    default:
      return undefined; // effects, context, external stores: nothing on the first render here
  }
}
