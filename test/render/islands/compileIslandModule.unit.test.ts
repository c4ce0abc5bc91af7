import test from 'ava';
import { compileIslandModule } from '../../../src/render/islands/compileIslandModule.js';

/** Runs a compiled factory with a stand-in React whose `h` returns plain data, as the browser runtime would call it. */
function run(factory: string, imports: Record<string, Record<string, unknown>> = {}) {
  const h = (type: unknown, props: unknown, ...children: unknown[]) => ({ type, props, children });
  const Fragment = 'Fragment';
  const react = { useState: (v: unknown) => [v, () => {}], useEffect: () => {}, Fragment, createElement: h };
  const make = new Function(`return (${factory});`)() as (...args: unknown[]) => Record<string, unknown>;
  return make(react, h, Fragment, (file: string) => imports[file] ?? {});
}

test('JSX becomes calls: elements, components, props, spreads, fragments, text and expressions', (t) => {
  const source = [
    "import { useState as useS } from 'react';",
    "import { Badge } from './badge.jsx';",
    'const label = "hi";',
    'export const Box = ({ n, ...rest }) => {',
    '  const [v] = useS(n);',
    '  return (',
    '    <>',
    '      <div className="box" data-x={v} {...rest} hidden>',
    '        {label}: <Badge tone="ok" />',
    '        text &amp; more',
    '      </div>',
    '    </>',
    '  );',
    '};',
    'export default function Named() { return <span />; }',
  ].join('\n');
  const { factory, imports, unavailable } = compileIslandModule(source, (s) => (s === './badge.jsx' ? 'snippets/badge.jsx' : null));
  t.deepEqual(imports, ['snippets/badge.jsx']);
  t.is(unavailable.size, 0);
  const Badge = () => null;
  const mod = run(factory, { 'snippets/badge.jsx': { Badge } });
  t.is(typeof mod.Box, 'function');
  t.is(mod.default, mod.Named);
  t.deepEqual((mod.Box as (p: object) => unknown)({ n: 3, id: 'a' }), {
    type: 'Fragment',
    props: null,
    children: [
      {
        type: 'div',
        props: { className: 'box', 'data-x': 3, id: 'a', hidden: true },
        children: ['hi', ': ', { type: Badge, props: { tone: 'ok' }, children: [] }, 'text & more'],
      },
    ],
  });
});

test('hooks Mintlify provides need no import; imports the browser cannot have are listed, not fatal', (t) => {
  const source = [
    "import Chart from 'chart-lib';",
    "import Intro from '/snippets/intro.mdx';",
    'export const Count = () => { const [c] = useState(5); return <b>{c}</b>; };',
  ].join('\n');
  const { factory, unavailable } = compileIslandModule(source, (s) => (s.startsWith('/') ? s.slice(1) : null));
  t.deepEqual(
    [...unavailable],
    [
      ['Chart', 'chart-lib'],
      ['Intro', '/snippets/intro.mdx'],
    ],
  );
  const mod = run(factory);
  t.deepEqual((mod.Count as () => unknown)(), { type: 'b', props: null, children: [5] });
});

test('a module the parser cannot read is refused with the reason', (t) => {
  t.throws(() => compileIslandModule('export const X = (a: number) => a;', () => null), { message: /Unexpected token/ });
});
