import test from 'ava';
import { createShikiTokenizer } from '../../src/render/code/createShikiTokenizer.js';
import { WARM_UP_SAMPLES, warmUpHighlighter } from '../../src/render/code/warmUpHighlighter.js';

const loaded = async (lang: string) => {
  const tokenizer = await createShikiTokenizer([]);
  return tokenizer.isLoaded(tokenizer.resolve(lang)!);
};

// The highlighter is shared by the whole process, so these run in order: nothing loaded first.
test.serial('a warm-up told to stop at once loads nothing', async (t) => {
  t.deepEqual(await warmUpHighlighter(['python', 'rust'], () => true), { loaded: [], compiled: [], practiced: 0 });
  t.false(await loaded('python'));
  t.false(await loaded('rust'));
});

test.serial('a warm-up stops between languages as soon as a job has arrived', async (t) => {
  let asked = 0;
  // The job "arrives" after python is loaded: its sample is skipped, and rust never loads.
  t.deepEqual(await warmUpHighlighter(['python', 'rust'], () => ++asked > 1), { loaded: ['python'], compiled: [], practiced: 0 });
  t.true(await loaded('python'));
  t.false(await loaded('rust'), 'not loaded after the job came');
});

test.serial(
  'it loads the languages it is given, by any of their names, compiles those with a sample, and ignores plain and unknown ones',
  async (t) => {
    const warmed = await warmUpHighlighter(['rust', 'sh', 'text', 'no-such-language', 'RUST'], () => false);
    t.like(
      warmed,
      { loaded: ['rust', 'shellscript'], compiled: ['shellscript'] },
      'rust and bash (as sh), once each; only bash has a sample',
    );
    t.true(warmed.practiced > 1, `then it practised bash (${warmed.practiced} rounds)`);
    t.true(await loaded('rust'));
    t.true(await loaded('bash'));
    t.false(await loaded('yaml'), 'nothing it was not given');
  },
);

test.serial(
  'a site with many languages only gets them loaded: compiling ahead would cost it memory a cached re-export never needs',
  async (t) => {
    const many = ['json', 'python', 'go', 'java', 'ruby', 'toml', 'xml', 'css', 'sql'];
    t.deepEqual(await warmUpHighlighter(many, () => false), { loaded: many, compiled: [], practiced: 0 });
    t.true(await loaded('sql'));
  },
);

test.serial('practice stops at the first turn after a job has arrived', async (t) => {
  let jobArrived = false;
  let asked = 0;
  // json is loaded and compiled; the job arrives during the third round of practice.
  const warming = warmUpHighlighter(['json'], () => {
    if (++asked === 5) jobArrived = true;
    return jobArrived;
  });
  const warmed = await warming;
  t.like(warmed, { loaded: ['json'], compiled: ['json'] });
  t.is(warmed.practiced, 2, 'two rounds done before the job came, none after');
});

test.serial('every sample really highlights in its language (a wrong one would warm little)', async (t) => {
  const tokenizer = await createShikiTokenizer([]);
  t.true(WARM_UP_SAMPLES.length >= 5);
  for (const [lang, code] of WARM_UP_SAMPLES) {
    const id = tokenizer.resolve(lang)!;
    await tokenizer.load([id]);
    const kinds = new Set(
      tokenizer
        .tokenize(code, id)
        .flat()
        .flatMap((token) => (typeof token === 'string' ? [] : [token[1]])),
    );
    t.true(kinds.size >= 3, `${lang}: ${kinds.size} token kinds`);
  }
});

test.serial('load only (the tokenizing is a thread of its own): grammars are loaded, none compiled or practised', async (t) => {
  t.false(await loaded('csharp'));
  t.deepEqual(await warmUpHighlighter(['csharp', 'python'], () => false, { loadOnly: true }), {
    loaded: ['csharp', 'python'],
    compiled: [],
    practiced: 0,
  });
  t.true(await loaded('csharp'));
});
