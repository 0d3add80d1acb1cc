/** Routes orchestrators and Prometheus poll every few seconds. */
export const probeRoutes = {
  liveness: 'healthz',
  readiness: 'readyz',
  metrics: 'metrics',
} as const;
