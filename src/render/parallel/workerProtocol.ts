import type { BuildReport } from '../report/BuildReport.js';
import type { DocsSource } from '../source/readDocsSource.js';
import type { ThemeAssets } from '../theme/prepareThemeAssets.js';
import type { PageResult } from './PageResult.js';

/** What a page worker needs to rebuild the same site view as the main thread (plain data). */
export interface PageWorkerData {
  sourceDir: string;
  /** The main thread's read of the source (file list, hash, page texts): not read and hashed again. */
  source: DocsSource;
  paths?: string[];
  domain: string;
  generatorVersion: string;
  cacheDir?: string;
  theme: ThemeAssets;
  searchIndexPath: string;
  languages: string[];
  keepRemote: boolean;
  allowAuthorScripts: boolean;
  shipWarnings: boolean;
  /** Custom scripts left out because they load third-party code. */
  droppedScripts: string[];
}

/** Main thread → worker. */
export type ToPageThread = { type: 'render'; positions: number[] } | { type: 'finish' };

/** Worker → main thread. `idle` asks for more pages; `report` closes the worker's share. */
export type FromPageThread =
  | { type: 'ready' }
  | { type: 'page'; result: PageResult }
  | { type: 'idle' }
  | { type: 'report'; report: BuildReport }
  | { type: 'error'; message: string };
