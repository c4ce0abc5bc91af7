import { parentPort, workerData } from 'node:worker_threads';
import { createReportCollector } from '../report/createReportCollector.js';
import { createShellParts } from '../site/createShellParts.js';
import { loadSite } from '../site/loadSite.js';
import { SourceTexts } from '../source/SourceTexts.js';
import { createPageRenderer } from './createPageRenderer.js';
import type { FromPageThread, PageWorkerData, ToPageThread } from './workerProtocol.js';

// A page-rendering worker: rebuilds the site view from the same inputs as the main thread,
// then renders whatever pages it is handed and reports back, until told to finish.
const data = workerData as PageWorkerData;
// The texts arrive as a plain Map of those the main thread read: the rest are read here when asked for.
data.source.texts = SourceTexts.over(data.sourceDir, data.source.fileHashes, data.source.texts);
const port = parentPort!;
const send = (message: FromPageThread) => port.postMessage(message);

try {
  // Config and navigation warnings are the main thread's to report; pages' own travel with each page.
  const report = createReportCollector();
  const site = await loadSite(data.sourceDir, data.source, createReportCollector(), data.paths);
  const shell = createShellParts(site, data.theme, data.searchIndexPath, data);
  const renderPage = await createPageRenderer({
    site,
    shell,
    sourceDir: data.sourceDir,
    cacheDir: data.cacheDir,
    languages: data.languages,
    keepRemote: data.keepRemote,
    allowAuthorScripts: data.allowAuthorScripts,
    shipWarnings: data.shipWarnings,
  });
  port.on('message', (message: ToPageThread) => {
    if (message.type === 'finish') {
      send({ type: 'report', report: report.toJSON() });
      port.close();
      return;
    }
    try {
      for (const position of message.positions) send({ type: 'page', result: renderPage(position) });
      send({ type: 'idle' });
    } catch (err) {
      send({ type: 'error', message: (err as Error).message });
    }
  });
  send({ type: 'ready' });
} catch (err) {
  send({ type: 'error', message: (err as Error).message });
}
