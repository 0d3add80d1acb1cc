/** The control plane's bounds of an endpoint's settings (libs/webhooks WEBHOOK_LIMITS). */
export const LIMITS = {
  minLeakRatePerSec: 0.01,
  maxLeakRatePerSec: 1000,
  maxQueueCapacity: 100_000,
  maxAttempts: 25,
} as const;

export interface EndpointFormValues {
  name: string;
  url: string;
  leakRatePerSec: number | string;
  queueCapacity: number | string;
  maxAttempts: number | string;
  enabled: boolean;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

const integerIn = (min: number, max: number) => (value: number | string) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
    ? null
    : `A whole number from ${min.toLocaleString()} to ${max.toLocaleString()}`;

/**
 * The rules the control plane applies, checked before sending. Where the URL resolves to (public
 * addresses only) only the control plane can tell: its answer lands on the URL field.
 */
export const endpointFormRules = {
  name: (value: string) =>
    NAME.test(value) ? null : 'Lowercase letters, digits, _ and -, starting with a letter or digit',
  url: (value: string) => {
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      return 'An absolute http:// or https:// URL';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'An http:// or https:// URL';
    if (url.username || url.password)
      return 'No credentials in the URL: receivers check the signature';
    if (url.hash) return 'No #fragment (it is never sent)';
    return null;
  },
  leakRatePerSec: (value: number | string) =>
    typeof value === 'number' &&
    value >= LIMITS.minLeakRatePerSec &&
    value <= LIMITS.maxLeakRatePerSec
      ? null
      : `From ${LIMITS.minLeakRatePerSec} to ${LIMITS.maxLeakRatePerSec.toLocaleString()} per second`,
  queueCapacity: integerIn(1, LIMITS.maxQueueCapacity),
  maxAttempts: integerIn(1, LIMITS.maxAttempts),
};

export const emptyEndpointForm = (): EndpointFormValues => ({
  name: '',
  url: '',
  leakRatePerSec: 5,
  queueCapacity: 1000,
  maxAttempts: 8,
  enabled: true,
});

export function endpointFormOf(endpoint: {
  name: string;
  url: string;
  leakRatePerSec: number;
  queueCapacity: number;
  maxAttempts: number;
  enabled: boolean;
}): EndpointFormValues {
  const { name, url, leakRatePerSec, queueCapacity, maxAttempts, enabled } = endpoint;
  return { name, url, leakRatePerSec, queueCapacity, maxAttempts, enabled };
}

/** The validated form as the API's input (the rules made the numbers numbers). */
export function endpointInputOf(values: EndpointFormValues) {
  return {
    name: values.name,
    url: values.url.trim(),
    leakRatePerSec: Number(values.leakRatePerSec),
    queueCapacity: Number(values.queueCapacity),
    maxAttempts: Number(values.maxAttempts),
    enabled: values.enabled,
  };
}

/** How long an endpoint takes to drain a full queue at its rate, in seconds. */
export function drainSeconds(queueCapacity: number, leakRatePerSec: number): number {
  return queueCapacity / leakRatePerSec;
}
