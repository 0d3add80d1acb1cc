/**
 * An async iterator fed by `push`, for a subscription. Unlike an async generator, `return()` (the
 * client unsubscribed or went away) ends it at once, even while a `next()` is waiting for a value,
 * and runs `onClose` then, so listeners and timers are released without waiting for one more
 * value. A client that reads slower than values come keeps only the newest `maxQueued`.
 */
export class PushIterator<T> implements AsyncIterableIterator<T, undefined> {
  private readonly queue: T[] = [];
  private readonly waiting: ((result: IteratorResult<T, undefined>) => void)[] = [];
  private closed = false;

  constructor(
    private readonly onClose: () => void,
    private readonly maxQueued = 100,
  ) {}

  push(value: T): void {
    if (this.closed) return;
    const waiting = this.waiting.shift();
    if (waiting) {
      waiting({ value, done: false });
      return;
    }
    this.queue.push(value);
    if (this.queue.length > this.maxQueued) this.queue.shift();
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.queue.length > 0) {
      return Promise.resolve({ value: this.queue.shift() as T, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * Ends from this side: `last` (if any) is read after what is queued, then `next()` is done;
   * `onClose` runs now.
   */
  end(last?: T): void {
    if (this.closed) return;
    if (last !== undefined) this.push(last);
    this.closed = true;
    for (const resolve of this.waiting.splice(0)) resolve({ value: undefined, done: true });
    this.onClose();
  }

  return(): Promise<IteratorResult<T, undefined>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<T, undefined>> {
    this.close();
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    for (const resolve of this.waiting.splice(0)) resolve({ value: undefined, done: true });
    this.onClose();
  }
}
