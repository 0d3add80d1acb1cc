export interface RedisModuleOptions {
  /** `redis://` or `rediss://` URL, e.g. the app's validated REDIS_URL. */
  readonly url: string;
}

export const REDIS_MODULE_OPTIONS = Symbol('REDIS_MODULE_OPTIONS');
