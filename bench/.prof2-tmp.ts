import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { scanSegment } from '../src/store/feedback/scanSegment.js';
import { parseFeedbackRecord, feedbackIdParts } from '../src/store/feedback/feedbackRecord.js';
const dir = process.argv[2];
const files = readdirSync(dir).map((f) => join(dir, f));
async function run(name: string, fn: (t: string) => void) {
  const c0 = process.cpuUsage();
  for (const f of files) await scanSegment(f, (t) => fn(t));
  const c = process.cpuUsage(c0);
  console.log(name, ((c.user + c.system) / 1000).toFixed(0));
}
await run('scan', () => {});
await run('json', (t) => JSON.parse(t));
await run('record', (t) => parseFeedbackRecord(t));
await run('record+id+date', (t) => { const r = parseFeedbackRecord(t); feedbackIdParts(r.id); Date.parse((r as any).createdAt); });
