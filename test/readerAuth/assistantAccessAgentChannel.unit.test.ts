import test from 'ava';
import { agentChannelFor } from '../../src/features/deployments/site/agentChannelFor.js';

const channel = JSON.stringify({
  v: 1,
  channel: 'agents',
  pages: [
    { path: 'open/hello', title: 'Hello', scope: '', text: 'kettleagent' },
    { path: 'team/notes', title: 'Notes', scope: '', text: 'quokkaagent' },
  ],
});

test('the agent channel keeps only the pages the reader may open, in the channel shape', (t) => {
  const cut = JSON.parse(agentChannelFor(channel, (page) => page === 'open/hello')) as {
    v: number;
    channel: string;
    pages: { path: string }[];
  };
  t.is(cut.v, 1);
  t.is(cut.channel, 'agents');
  t.deepEqual(
    cut.pages.map((p) => p.path),
    ['open/hello'],
  );
});

test('a channel file that is not the expected shape is withheld whole, never passed through', (t) => {
  for (const damaged of [
    'not json',
    'null',
    '{"pages":"quokkaagent"}',
    '{"pages":[{"text":"quokkaagent"}]}',
    '{"extra":"quokkaagent","pages":[]}',
  ]) {
    const out = agentChannelFor(damaged, () => true);
    t.false(out.includes('quokkaagent'), damaged);
    t.deepEqual((JSON.parse(out) as { pages: unknown[] }).pages, []);
  }
});
