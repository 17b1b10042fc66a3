import { Logger } from '@nestjs/common';

/**
 * Clean-up of rows that already mean nothing (expired, idle), run off a request's own time: at most
 * once per `intervalMs` per instance and one at a time, each run deleting in batches until one comes
 * back short or `maxBatches` ran, so a run is bounded however much is waiting. Every instance may
 * run it; the batches themselves must be safe to run concurrently (SKIP LOCKED and the like).
 */
export class BackgroundSweep {
  private readonly logger: Logger;
  private last = 0;
  private running: Promise<number> | null = null;

  constructor(
    private readonly what: string,
    private readonly intervalMs: number,
    /** Deletes at most `limit` rows and says how many it deleted. */
    private readonly deleteBatch: (limit: number) => Promise<number>,
    private readonly batchSize: number,
    private readonly maxBatches: number,
  ) {
    this.logger = new Logger(`Sweep ${what}`);
  }

  /** One bounded run now (tests give smaller bounds); returns how many rows went. */
  async run(batchSize = this.batchSize, maxBatches = this.maxBatches): Promise<number> {
    let deleted = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const count = await this.deleteBatch(batchSize);
      deleted += count;
      if (count < batchSize) break;
    }
    return deleted;
  }

  /** Starts a run in the background when the last began `intervalMs` ago or more and none is running. */
  nowAndThen(now: number): void {
    if (this.running || now - this.last < this.intervalMs) return;
    this.last = now;
    this.running = this.run()
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, `could not sweep ${this.what}`);
        return 0;
      })
      .finally(() => (this.running = null));
  }
}
