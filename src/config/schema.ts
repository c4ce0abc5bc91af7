import { z } from 'zod';
import { agentConfigSchema } from './sections/agent.js';
import { automationsConfigSchema } from './sections/automations.js';
import { assistantConfigSchema } from './sections/assistant.js';
import { dashboardConfigSchema } from './sections/dashboardAuth.js';
import { analyticsConfigSchema, feedbackConfigSchema } from './sections/feedback.js';
import { limitsConfigSchema, serverConfigSchema } from './sections/server.js';
import { siteConfigSchema } from './sections/sites.js';
import { sourcesConfigSchema } from './sections/sources.js';
import { exportConfigSchema, staticExportConfigSchema } from './sections/staticExport.js';

/**
 * Every setting of the appliance. Objects are strict so that a misspelt key in a config file
 * is reported instead of silently ignored. Defaults live in config/default.json.
 */
export const configSchema = z.strictObject({
  dataDir: z.string().min(1).describe('Data directory (store, secrets, bundles, deployed versions).'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).describe('Log verbosity.'),
  logFormat: z.enum(['auto', 'json', 'pretty']).describe('Log lines: auto = readable text when stdout is a terminal, JSON otherwise.'),
  server: serverConfigSchema,
  limits: limitsConfigSchema,
  sites: z.array(siteConfigSchema).describe('Docs sites this appliance can export.'),
  staticExport: staticExportConfigSchema,
  export: exportConfigSchema,
  feedback: feedbackConfigSchema,
  analytics: analyticsConfigSchema,
  agent: agentConfigSchema,
  sources: sourcesConfigSchema,
  automations: automationsConfigSchema,
  assistant: assistantConfigSchema,
  dashboard: dashboardConfigSchema.default({ oidc: null }),
});

/** The validated configuration. */
export type Config = z.infer<typeof configSchema>;
