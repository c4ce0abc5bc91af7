// npm run eval:assistant [-- --misses]
// Retrieval quality of the assistant's keyword ranking, on questions written for the shared
// corpora (bench/assistant/questions.json: each names the page that answers it). Each corpus is
// exported once (cached in the temp directory), then every question goes through the same
// retriever POST /v1/search uses, over the export's section chunks, with the default filter.
// A question is a hit at k when a section of its page is among the first k sections returned;
// MRR is the mean of 1/rank of the first such section (0 past 50). --misses lists the questions
// whose page is not in the top 5.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pino } from 'pino';
import { KeywordRetriever } from '../src/features/assistant/retrieval/KeywordRetriever.js';
import { renderedCorpus } from './assistant/renderedCorpus.js';

interface Question {
  corpus: string;
  question: string;
  page: string;
}

const showMisses = process.argv.includes('--misses');
const { questions } = JSON.parse(readFileSync(resolve('bench/assistant/questions.json'), 'utf8')) as { questions: Question[] };
const corpora = [...new Set(questions.map((q) => q.corpus))];

const rows: string[][] = [['corpus', 'questions', 'hit@1', 'hit@5', 'MRR', 'ms/question']];
const totals = { n: 0, hit1: 0, hit5: 0, rr: 0 };
const misses: string[] = [];
for (const corpus of corpora) {
  const out = await renderedCorpus(corpus, resolve('../shared/corpora', corpus), (line) => process.stderr.write(`${line}\n`));
  const retriever = new KeywordRetriever(() => ({ id: corpus, filesDir: out, access: null }), {
    maxIndexBytes: 256 * 1024 * 1024,
    logger: pino({ level: 'silent' }),
  });
  const asked = questions.filter((q) => q.corpus === corpus);
  let hit1 = 0;
  let hit5 = 0;
  let rr = 0;
  await retriever.search(corpus, { query: 'warm up', pageSize: 1 }, 'all'); // loads the index: not part of a question's time
  const started = performance.now();
  for (const q of asked) {
    const hits = await retriever.search(corpus, { query: q.question, pageSize: 50 }, 'all');
    const rank = hits.findIndex((h) => h.path === q.page) + 1;
    if (rank === 1) hit1++;
    if (rank >= 1 && rank <= 5) hit5++;
    else
      misses.push(
        `${corpus}: “${q.question}” → wanted ${q.page}, rank ${rank || '>50'}; top: ${hits
          .slice(0, 3)
          .map((h) => h.path)
          .join(', ')}`,
      );
    if (rank > 0) rr += 1 / rank;
  }
  const ms = (performance.now() - started) / asked.length;
  rows.push([corpus, String(asked.length), ratio(hit1, asked.length), ratio(hit5, asked.length), ratio(rr, asked.length), ms.toFixed(2)]);
  totals.n += asked.length;
  totals.hit1 += hit1;
  totals.hit5 += hit5;
  totals.rr += rr;
}
rows.push(['all', String(totals.n), ratio(totals.hit1, totals.n), ratio(totals.hit5, totals.n), ratio(totals.rr, totals.n), '']);
printTable(rows);
if (showMisses) for (const m of misses) console.log(m);

function ratio(x: number, n: number): string {
  return (x / n).toFixed(3);
}

function printTable(table: string[][]): void {
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  for (const r of table) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
}
