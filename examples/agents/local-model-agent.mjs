#!/usr/bin/env node
// An Enclave agent that asks a model server on your own network to edit the docs.
//
// It speaks the OpenAI-compatible chat-completions API that llama.cpp's server, vLLM, Ollama
// and most on-prem gateways offer. Configure it in the agent command, for example:
//
//   "command": ["env", "AGENT_MODEL_URL=http://llm.corp.internal:8000/v1",
//               "AGENT_API_KEY_FILE=/etc/enclave/model-token",
//               "node", "/app/examples/agents/local-model-agent.mjs"]
//
// Enclave gives it: the prompt on stdin (and in ENCLAVE_PROMPT), ENCLAVE_MODEL, ENCLAVE_JOB_ID;
// cwd = a scratch clone of the docs repository on branch enclave/agent/<job id>. It writes the
// files the model returns; Enclave commits and pushes them. Exit codes: 0 done (with or without
// edits), 2 the model's answer was unusable, 3 the model server could not be reached.
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, normalize, relative, resolve, sep } from 'node:path';

const DOC_EXTENSIONS = new Set(['.md', '.mdx', '.json', '.yaml', '.yml']);
const MAX_CONTEXT_BYTES = Number(process.env.AGENT_MAX_CONTEXT_BYTES ?? 200_000);
const REQUEST_TIMEOUT_MS = Number(process.env.AGENT_REQUEST_TIMEOUT_MS ?? 600_000);

function fail(code, message) {
  console.error(`agent: ${message}`);
  process.exit(code);
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Docs files under the clone (no .git, no node_modules), smallest first, within the byte budget. */
async function collectDocs(root) {
  const found = [];
  async function walk(dir, depth) {
    if (depth > 12) return;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, depth + 1);
      else if (entry.isFile() && DOC_EXTENSIONS.has(extname(entry.name))) found.push({ path, size: (await stat(path)).size });
    }
  }
  await walk(root, 0);
  found.sort((a, b) => a.size - b.size);
  const files = [];
  let budget = MAX_CONTEXT_BYTES;
  for (const file of found) {
    if (file.size > budget) continue;
    budget -= file.size;
    files.push({ path: relative(root, file.path), content: await readFile(file.path, 'utf8') });
  }
  return files;
}

/** A path the model named, if it stays inside the clone and is a docs file; else null. */
function safeTarget(root, path) {
  if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) return null;
  const target = resolve(root, normalize(path));
  if (!target.startsWith(root + sep) || target.split(sep).includes('.git')) return null;
  return DOC_EXTENSIONS.has(extname(target)) ? target : null;
}

const baseUrl = process.env.AGENT_MODEL_URL;
if (!baseUrl) fail(2, 'AGENT_MODEL_URL is not set; put it in the agent command (see the README, "Agent jobs")');
const apiKey = process.env.AGENT_API_KEY_FILE ? readFileSync(process.env.AGENT_API_KEY_FILE, 'utf8').trim() : null;
const prompt = (await readStdin()) || process.env.ENCLAVE_PROMPT || '';
const root = process.cwd();
const docs = await collectDocs(root);

const system = [
  'You edit documentation written in Mintlify format (MDX pages, docs.json navigation).',
  'Answer with one JSON object: {"summary": string, "edits": [{"path": string, "content": string}]}.',
  'Each edit replaces the whole file at path (relative to the repository root). Only include files you change.',
].join(' ');
const user = `${prompt}\n\nRepository files:\n${docs.map((f) => `=== ${f.path}\n${f.content}`).join('\n')}`;

let response;
try {
  response = await fetch(`${baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
    body: JSON.stringify({
      model: process.env.ENCLAVE_MODEL,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
} catch (err) {
  fail(3, `model server unreachable: ${err.cause?.code ?? err.message}`);
}
if (!response.ok) fail(3, `model server answered ${response.status}`);

let answer;
try {
  const body = await response.json();
  answer = JSON.parse(body.choices[0].message.content);
} catch {
  fail(2, 'the model did not answer with the expected JSON object');
}
if (!Array.isArray(answer.edits)) fail(2, 'the answer has no "edits" list');

const targets = answer.edits.map((edit) => ({ edit, target: safeTarget(root, edit?.path) }));
const refused = targets.filter((t) => !t.target || typeof t.edit.content !== 'string');
if (refused.length > 0) fail(2, `refusing edits outside the docs: ${refused.map((t) => JSON.stringify(t.edit?.path)).join(', ')}`);
for (const { edit, target } of targets) {
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, edit.content);
  console.log(`edited ${edit.path}`);
}
console.log(answer.summary ?? `${targets.length} file(s) edited`);
