import {
  HttpException,
  Inject,
  Injectable,
  Module,
  SetMetadata,
  type CanActivate,
  type DynamicModule,
  type ExecutionContext,
  type FactoryProvider,
  type ModuleMetadata,
  type Provider,
} from '@nestjs/common';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import {
  decide,
  finishOnClose,
  PROBLEM_CONTENT_TYPE,
  type GuardOptions,
  type RequestLike,
} from './http-guard';
import type { CheckResult, ProblemDetails } from './types';

/** The request on either Nest platform (Express's or Fastify's request both have these). */
export interface NestHttpRequest extends RequestLike {
  headers: IncomingHttpHeaders;
  /** The check that let this request through (set by `SluiceGuard`). */
  sluice?: CheckResult;
}

/** Express's response is a `ServerResponse`; Fastify's reply wraps one in `raw`. */
type NestHttpResponse =
  ServerResponse | { raw: ServerResponse; header(name: string, value: string): unknown };

export interface SluiceGuardOptions extends Omit<GuardOptions<NestHttpRequest>, 'policy'> {
  /** The default policy; `@RateLimit({ policy })` on a handler or controller wins over it. */
  policy?: GuardOptions<NestHttpRequest>['policy'];
}

/** Per handler or controller (the handler's wins). */
export interface RateLimitOptions {
  policy?: string;
  cost?: number;
}

/** Injection token of the guard's options (`SluiceModule` provides it). */
export const SLUICE_GUARD_OPTIONS = Symbol('SLUICE_GUARD_OPTIONS');

const ROUTE_OPTIONS = 'sluice:rate-limit';

/** This handler's or controller's policy and cost, over the module's. */
export const RateLimit = (options: RateLimitOptions) => SetMetadata(ROUTE_OPTIONS, options);

/** No check for this handler or controller (e.g. health probes under a global guard). */
export const SkipRateLimit = () => SetMetadata(ROUTE_OPTIONS, false);

/**
 * A denial or fail-closed refusal. Nest's exception filter sends `problem` as the body with
 * `status`; the guard has set `Content-Type: application/problem+json` and the rate-limit
 * headers on the response already. A custom global filter can recognize it by class.
 */
export class SluiceDeniedException extends HttpException {
  constructor(
    readonly problem: ProblemDetails,
    status: number,
  ) {
    super(problem, status);
  }
}

function setHeaders(response: NestHttpResponse, headers: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if ('raw' in response) response.header(name, value);
    else response.setHeader(name, value);
  }
}

function routeOptions(context: ExecutionContext): RateLimitOptions | false | undefined {
  const read = (target: object) =>
    Reflect.getMetadata(ROUTE_OPTIONS, target) as RateLimitOptions | false | undefined;
  return read(context.getHandler()) ?? read(context.getClass());
}

/**
 * Checks each HTTP request (other contexts pass): sets the rate-limit headers on the response
 * and refuses a denial with the data plane's problem+json (429, or 403 for a suspended tenant),
 * or 503 when the data plane cannot decide and the client fails closed. Use it with
 * `@UseGuards(SluiceGuard)`, or globally as `{ provide: APP_GUARD, useExisting: SluiceGuard }`.
 */
@Injectable()
export class SluiceGuard implements CanActivate {
  constructor(@Inject(SLUICE_GUARD_OPTIONS) private readonly options: SluiceGuardOptions) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const route = routeOptions(context);
    if (route === false) return true;
    const policy = route?.policy ?? this.options.policy;
    if (policy === undefined) {
      throw new TypeError(
        `SluiceGuard: no policy for ${context.getClass().name}.${context.getHandler().name}: set one in SluiceModule.forRoot or with @RateLimit`,
      );
    }
    const http = context.switchToHttp();
    const request = http.getRequest<NestHttpRequest>();
    const response = http.getResponse<NestHttpResponse>();
    const cost = route?.cost ?? this.options.cost;
    const verdict = await decide(
      { ...this.options, policy, ...(cost === undefined ? {} : { cost }) },
      request,
    );
    setHeaders(response, verdict.headers);
    if (!verdict.pass) {
      setHeaders(response, { 'Content-Type': PROBLEM_CONTENT_TYPE });
      throw new SluiceDeniedException(verdict.problem, verdict.status);
    }
    request.sluice = verdict.result;
    finishOnClose(this.options.client, verdict.result, 'raw' in response ? response.raw : response);
    return true;
  }
}

export interface SluiceModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  useFactory: (...args: never[]) => SluiceGuardOptions | Promise<SluiceGuardOptions>;
}

/** Provides `SluiceGuard` and its options to the whole application (a global module). */
@Module({})
export class SluiceModule {
  static forRoot(options: SluiceGuardOptions): DynamicModule {
    return SluiceModule.withOptions({ provide: SLUICE_GUARD_OPTIONS, useValue: options });
  }

  /** Options from other providers, e.g. `inject: [ConfigService]`. */
  static forRootAsync(options: SluiceModuleAsyncOptions): DynamicModule {
    return {
      ...SluiceModule.withOptions({
        provide: SLUICE_GUARD_OPTIONS,
        useFactory: options.useFactory,
        inject: options.inject ?? [],
      }),
      imports: options.imports ?? [],
    };
  }

  private static withOptions(provider: Provider): DynamicModule {
    return {
      module: SluiceModule,
      global: true,
      providers: [provider, SluiceGuard],
      exports: [SLUICE_GUARD_OPTIONS, SluiceGuard],
    };
  }
}
