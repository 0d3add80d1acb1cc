import { AppError } from '../graphql/app-error';

/**
 * At most one run per user at a time in this process, for work that is bounded per call but not
 * across calls (the playground's checks, the algorithm comparison): the next is TOO_MANY_REQUESTS.
 */
export class OneRunPerUser {
  private readonly running = new Set<string>();

  constructor(private readonly refusal: string) {}

  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    if (this.running.has(userId)) throw AppError.tooManyRequests(this.refusal, 1);
    this.running.add(userId);
    try {
      return await work();
    } finally {
      this.running.delete(userId);
    }
  }
}
