import { createHmac } from 'node:crypto';
import test from 'ava';
import { AppError } from '../../src/platform/AppError.js';
import { verifyGitWebhook } from '../../src/features/sources/verifyGitWebhook.js';

const SECRET = 's3cret';
const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';
const hex = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');
const pushBody = JSON.stringify({ ref: 'refs/heads/main', before: '0'.repeat(40), after: SHA, commits: [{ id: SHA }] });
const bitbucketBody = JSON.stringify({
  eventKey: 'repo:refs_changed',
  changes: [
    {
      ref: { id: 'refs/heads/main', displayId: 'main', type: 'BRANCH' },
      refId: 'refs/heads/main',
      fromHash: '0'.repeat(40),
      toHash: SHA,
      type: 'UPDATE',
    },
  ],
});

/** Each server's push delivery as its documentation describes it, signed with `secret`. */
const deliveries = (secret: string) => ({
  gitea: { headers: { 'x-gitea-event': 'push', 'x-gitea-signature': hex(pushBody, secret) }, body: pushBody },
  forgejo: { headers: { 'x-forgejo-event': 'push', 'x-forgejo-signature': hex(pushBody, secret) }, body: pushBody },
  gitlab: {
    headers: { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret },
    body: JSON.stringify({ object_kind: 'push', ref: 'refs/heads/main', after: SHA }),
  },
  github: { headers: { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hex(pushBody, secret)}` }, body: pushBody },
  bitbucket: {
    headers: { 'x-event-key': 'repo:refs_changed', 'x-hub-signature': `sha256=${hex(bitbucketBody, secret)}` },
    body: bitbucketBody,
  },
});

for (const [name, delivery] of Object.entries(deliveries(SECRET))) {
  test(`${name}: a push signed as the server signs it names the branch and commit`, (t) => {
    const event = verifyGitWebhook(delivery.headers, Buffer.from(delivery.body), SECRET);
    t.like(event, { kind: 'push', branch: 'main', after: SHA });
  });
}

for (const [name, delivery] of Object.entries(deliveries('another secret'))) {
  test(`${name}: signed with another secret is refused with 401`, (t) => {
    const err = t.throws(() => verifyGitWebhook(delivery.headers, Buffer.from(delivery.body), SECRET), { instanceOf: AppError });
    t.is(err?.status, 401);
  });
}

test('a body changed after signing is refused', (t) => {
  const { headers } = deliveries(SECRET).github;
  t.throws(() => verifyGitWebhook(headers, Buffer.from(pushBody.replace('main', 'evil')), SECRET), { instanceOf: AppError });
});

test('a delivery with no signature header at all is refused', (t) => {
  t.throws(() => verifyGitWebhook({ 'x-github-event': 'push' }, Buffer.from(pushBody), SECRET), { instanceOf: AppError });
});

test('pings, tag pushes and branch deletions are verified, then ignored', (t) => {
  const ping = '{"zen":"hi"}';
  t.like(verifyGitWebhook({ 'x-github-event': 'ping', 'x-hub-signature-256': `sha256=${hex(ping)}` }, Buffer.from(ping), SECRET), {
    kind: 'ignored',
  });
  const bbPing = '{}';
  t.like(verifyGitWebhook({ 'x-event-key': 'diagnostics:ping', 'x-hub-signature': `sha256=${hex(bbPing)}` }, Buffer.from(bbPing), SECRET), {
    kind: 'ignored',
  });
  const tag = JSON.stringify({ ref: 'refs/tags/v1', after: SHA });
  t.like(verifyGitWebhook({ 'x-gitea-event': 'push', 'x-gitea-signature': hex(tag) }, Buffer.from(tag), SECRET), { kind: 'ignored' });
  const deleted = JSON.stringify({ ref: 'refs/heads/main', after: '0'.repeat(40) });
  t.like(verifyGitWebhook({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': SECRET }, Buffer.from(deleted), SECRET), {
    kind: 'ignored',
    reason: 'branch main was deleted',
  });
});
