import { envFields } from '@sluice/config';
import { allowedCidrsEnvField, secretsKeyEnvField } from '@sluice/webhooks';
import { z } from 'zod';

/** An integer variable, bounded so that a bad value fails at boot naming it. */
const integer = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** An optional variable; set but empty (`SMTP_URL=` in a .env file) counts as unset. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const DAY_SECONDS = 86_400;

export const envSchema = z
  .object({
    HOST: envFields.host(),
    CONTROL_PLANE_PORT: envFields.port(4000),
    DATABASE_URL: envFields.databaseUrl(),
    REDIS_URL: envFields.redisUrl(),
    LOG_LEVEL: envFields.logLevel(),
    SLUICE_KEY_PREFIX: envFields.keyPrefix(),
    /** `production` turns GraphQL introspection off unless CONTROL_PLANE_INTROSPECTION says. */
    NODE_ENV: optional(z.string()),
    /** Session cookies carry `Secure` unless this is false (plain-http local development). */
    CONTROL_PLANE_COOKIE_SECURE: z.stringbool().default(true),
    /** A session unused this long ends. */
    CONTROL_PLANE_SESSION_IDLE_SECONDS: integer(60, 30 * DAY_SECONDS, 12 * 3600),
    /** A session ends this long after login, however much it is used. */
    CONTROL_PLANE_SESSION_ABSOLUTE_SECONDS: integer(60, 90 * DAY_SECONDS, 7 * DAY_SECONDS),
    /** Login attempts per account (email) and per client IP within the window. */
    CONTROL_PLANE_LOGIN_ACCOUNT_LIMIT: integer(1, 1000, 5),
    CONTROL_PLANE_LOGIN_IP_LIMIT: integer(1, 100_000, 20),
    CONTROL_PLANE_LOGIN_WINDOW_SECONDS: integer(1, DAY_SECONDS, 900),
    /**
     * Proxies in front of the control plane whose X-Forwarded-For is believed (the dashboard's
     * server; addresses, CIDRs, `loopback`, `uniquelocal`…): the login throttle then counts the
     * browser's address, not the proxy's. Default none.
     */
    CONTROL_PLANE_TRUSTED_PROXIES: optional(
      z.string().regex(/^[\w.:/, -]+$/, 'must be addresses, CIDRs or names, comma-separated'),
    ),
    /** Introspection of the GraphQL schema; default on, except with NODE_ENV=production. */
    CONTROL_PLANE_INTROSPECTION: optional(z.stringbool()),
    /** Base of the links mailed to users (invitations, password resets): the dashboard's URL. */
    CONTROL_PLANE_LINK_BASE_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .default('http://127.0.0.1:3000'),
    /** How often the outbox relay looks for changes to publish (it is also woken by each change). */
    CONTROL_PLANE_RELAY_INTERVAL_MS: integer(50, 60_000, 1000),
    /** How often every tenant's Redis version is compared with PostgreSQL's and repaired. */
    CONTROL_PLANE_RECONCILE_INTERVAL_MS: integer(100, 3_600_000, 5000),
    /**
     * Most units per window a sliding-window-log rule may allow (templates, tenant policies,
     * overrides; plans may lower it): the log keeps an entry per unit, so a denied check's work
     * grows with it. Stored rules above it keep working; an edit leaving one above is refused.
     */
    CONTROL_PLANE_SLIDING_LOG_MAX_LIMIT: integer(1, 1_000_000, 10_000),
    /** Subscriptions one WebSocket connection may run at once (the dashboard needs ~25). */
    CONTROL_PLANE_SUBSCRIPTIONS_PER_CONNECTION: integer(1, 1000, 40),
    /** Subscriptions one user may run at once in one control-plane process, over all its connections. */
    CONTROL_PLANE_SUBSCRIPTIONS_PER_USER: integer(1, 10_000, 100),
    /** How often running subscriptions' sessions and memberships are checked again. */
    CONTROL_PLANE_SUBSCRIPTION_RECHECK_MS: integer(100, 60_000, 2000),
    /**
     * Mail goes out over SMTP when set (smtp:// or smtps://); otherwise links are logged, which
     * only development may do: required with NODE_ENV=production.
     */
    SMTP_URL: optional(z.string().regex(/^smtps?:\/\/[^/]/, 'must be an smtp:// or smtps:// URL')),
    /** The From of mailed links (invitations, password resets). */
    CONTROL_PLANE_MAIL_FROM: z
      .string()
      .trim()
      .min(3, 'must be a sender, e.g. Sluice <no-reply@example.com>')
      .default('Sluice <no-reply@localhost>'),
    /** An invitation link works this long (s). */
    CONTROL_PLANE_INVITATION_TTL_SECONDS: integer(300, 30 * DAY_SECONDS, 7 * DAY_SECONDS),
    /** A password reset link works this long (s). */
    CONTROL_PLANE_PASSWORD_RESET_TTL_SECONDS: integer(300, DAY_SECONDS, 3600),
    /** Encrypts webhook signing secrets (32 bytes, base64); unset: no webhook endpoint can be made. */
    SLUICE_SECRETS_KEY: secretsKeyEnvField(),
    /** Non-public networks webhook URLs may point at (CIDRs, comma-separated); default none. */
    SLUICE_WEBHOOK_ALLOWED_CIDRS: allowedCidrsEnvField(),
  })
  .refine(
    (env) => env.CONTROL_PLANE_SESSION_IDLE_SECONDS <= env.CONTROL_PLANE_SESSION_ABSOLUTE_SECONDS,
    {
      path: ['CONTROL_PLANE_SESSION_IDLE_SECONDS'],
      message: 'must not exceed CONTROL_PLANE_SESSION_ABSOLUTE_SECONDS',
    },
  )
  // an invitation or password-reset link in the log is a credential for whoever reads the log
  .refine((env) => env.NODE_ENV !== 'production' || env.SMTP_URL !== undefined, {
    path: ['SMTP_URL'],
    message:
      'must be set with NODE_ENV=production: without a mail server, invitation and password-reset links would be written to the log, which only development may do',
  });

export type Env = z.infer<typeof envSchema>;

/** Injection token of the validated environment. */
export const ENV = Symbol('ENV');
