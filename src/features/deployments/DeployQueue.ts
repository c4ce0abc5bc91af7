/**
 * One deployer's queue: deployments and rollbacks run one at a time, in order. Work that only
 * follows a switch (pruning, compression left for after it) runs in the queue too but does not
 * make the deployer busy, so a new deployment queues behind it instead of being refused.
 */
export class DeployQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private aside = 0;

  /** Runs `work` after everything queued before it. */
  run<T>(work: () => Promise<T>): Promise<T> {
    this.queued++;
    const result = this.tail.then(work);
    this.tail = result.catch(() => {}).finally(() => this.queued--);
    return result;
  }

  /** Queues `work` that does not count as busy, from now until it ends. */
  runAside(work: () => Promise<void>): Promise<void> {
    this.aside++;
    return this.run(work).finally(() => this.aside--);
  }

  /** Runs `work`, already in the queue, without counting as busy from here on (a deployment that is live and only pruning). */
  async stepAside<T>(work: () => Promise<T>): Promise<T> {
    this.aside++;
    try {
      return await work();
    } finally {
      this.aside--;
    }
  }

  /** A deployment or rollback is queued or running (work aside does not count). */
  busy(): boolean {
    return this.queued - this.aside > 0;
  }

  /** Waits for everything queued so far. */
  async drain(): Promise<void> {
    await this.tail.catch(() => {});
  }
}
