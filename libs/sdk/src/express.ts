import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { decide, finishOnClose, PROBLEM_CONTENT_TYPE, type GuardOptions } from './http-guard';
import type { CheckResult } from './types';

export type { GuardOptions } from './http-guard';
export type SluiceExpressOptions = GuardOptions<Request>;

declare global {
  // Express's own extension point for typed `res.locals`
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The check that let this request through (set by `sluiceExpress`). */
      sluice?: CheckResult;
    }
  }
}

/**
 * Express (4 and 5) middleware: checks each request, sets the rate-limit headers on the response,
 * and answers a denial with the data plane's problem+json (429, or 403 for a suspended tenant),
 * or 503 when the data plane cannot decide and the client fails closed. The check result is at
 * `res.locals.sluice`. Configuration errors (a bad key, an unknown policy) go to `next` as
 * `SluiceGuardError` (500).
 */
export function sluiceExpress(options: SluiceExpressOptions): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const verdict = await decide(options, req);
      res.set(verdict.headers);
      if (!verdict.pass) {
        res.status(verdict.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(verdict.problem));
        return;
      }
      res.locals.sluice = verdict.result;
      finishOnClose(options.client, verdict.result, res);
      next();
    } catch (error) {
      next(error);
    }
  };
}
