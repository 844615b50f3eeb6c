export class PoolFullError extends Error {
  constructor() {
    super('variant queue full');
  }
}

/** At most `concurrency` jobs at once and `queueMax` waiting; beyond that callers are refused at once. */
export class WorkPool {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly queueMax: number,
  ) {}

  run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency && this.waiting.length >= this.queueMax) {
      return Promise.reject(new PoolFullError());
    }
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running += 1;
        job()
          .then(resolve, reject)
          .finally(() => {
            this.running -= 1;
            this.waiting.shift()?.();
          });
      };
      if (this.running < this.concurrency) start();
      else this.waiting.push(start);
    });
  }

  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
