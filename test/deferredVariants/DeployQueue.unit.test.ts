import test from 'ava';
import { DeployQueue } from '../../src/features/deployments/DeployQueue.js';

/** A promise and the function that settles it, so a test decides when queued work ends. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

test('work aside (compression after a switch) runs in turn but never makes the queue busy; a deployment does', async (t) => {
  const queue = new DeployQueue();
  const order: string[] = [];
  const aside = gate();
  const settled = queue.runAside(async () => {
    order.push('aside starts');
    await aside.wait;
    order.push('aside ends');
  });
  t.false(queue.busy(), 'queued aside is not busy');
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(order, ['aside starts']);
  t.false(queue.busy(), 'running aside is not busy');
  const deployed = queue.run(async () => {
    order.push('deployment');
  });
  t.true(queue.busy(), 'a queued deployment is busy: the work aside sees it and stops');
  aside.open();
  await Promise.all([settled, deployed]);
  t.deepEqual(order, ['aside starts', 'aside ends', 'deployment']);
  t.false(queue.busy());
});

test('a deployment that steps aside (live, only pruning) stops counting as busy until it ends', async (t) => {
  const queue = new DeployQueue();
  const pruning = gate();
  let during = true;
  const deployed = queue.run(async () => {
    t.true(queue.busy());
    await queue.stepAside(async () => {
      during = queue.busy();
      await pruning.wait;
    });
  });
  await new Promise((resolve) => setImmediate(resolve));
  t.false(during);
  pruning.open();
  await deployed;
  await queue.drain();
  t.false(queue.busy());
});
