import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup } from 'node:dns/promises';
import { z } from 'zod';
import { DestinationError } from './errors';
import { urlProblem } from './settings';

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Where webhooks may go besides public unicast addresses. */
export interface DestinationPolicy {
  /** Networks allowed although not public, e.g. 127.0.0.0/8 for a test's local receiver. */
  allowedCidrs: readonly Cidr[];
}

export const DENY_NON_PUBLIC: DestinationPolicy = { allowedCidrs: [] };

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** `dns.promises.lookup(host, { all: true })`, injectable for tests. */
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

const systemLookup: Lookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/**
 * `SLUICE_WEBHOOK_ALLOWED_CIDRS`: comma- or space-separated networks (`10.0.0.0/8`) or single
 * addresses (`127.0.0.1`) webhooks may reach although they are not public. Empty (the default):
 * only public unicast addresses.
 */
export function parseCidrList(text: string): Cidr[] {
  const entries = text.split(/[\s,]+/).filter((entry) => entry !== '');
  const bad = entries.filter((entry) => !ipaddr.isValidCIDR(entry) && !ipaddr.isValid(entry));
  if (bad.length > 0) {
    throw new Error(`not an address or a CIDR network: ${bad.join(', ')}`);
  }
  return entries.map((entry): Cidr => {
    if (ipaddr.isValidCIDR(entry)) return ipaddr.parseCIDR(entry);
    const address = ipaddr.process(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  });
}

/** `SLUICE_WEBHOOK_ALLOWED_CIDRS` for an app's env schema, parsed into a `DestinationPolicy`. */
export const allowedCidrsEnvField = () =>
  z
    .string()
    .default('')
    .transform((value, context): DestinationPolicy => {
      try {
        return { allowedCidrs: parseCidrList(value) };
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });

/**
 * The range of an address webhooks may not reach (`loopback`, `private`, `linkLocal` — cloud
 * metadata at 169.254.169.254 —, `uniqueLocal`, `carrierGradeNat`, `reserved`, …), or
 * undefined when allowed: public unicast, or inside an allowed network. IPv4-mapped IPv6
 * addresses count as their IPv4 address.
 */
export function forbiddenRange(address: string, policy: DestinationPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  const ip = ipaddr.process(address);
  for (const [network, bits] of policy.allowedCidrs) {
    if (network.kind() === ip.kind() && ip.match(network, bits)) return undefined;
  }
  const range = ip.range();
  return range === 'unicast' ? undefined : range;
}

/**
 * Resolves the URL's host and checks every address it resolves to (one forbidden address is
 * enough to refuse: DNS may hand out either). The worker calls it again before each delivery and
 * connects to an address it returned, so a name re-pointed at an internal address after the
 * check (DNS rebinding) is refused too. Throws `DestinationError`.
 */
export async function resolveDestination(
  url: string,
  policy: DestinationPolicy,
  lookup: Lookup = systemLookup,
): Promise<ResolvedAddress[]> {
  const problem = urlProblem(url);
  if (problem) throw new DestinationError('invalid-url', `The URL ${problem}.`);
  const { hostname } = new URL(url);
  // an IPv6 literal keeps its brackets in URL.hostname
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  let addresses: ResolvedAddress[];
  try {
    addresses = ipaddr.isValid(host)
      ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
      : await lookup(host);
  } catch {
    throw new DestinationError('unresolvable', `The host ${host} does not resolve.`);
  }
  if (addresses.length === 0) {
    throw new DestinationError('unresolvable', `The host ${host} does not resolve.`);
  }
  for (const { address } of addresses) {
    const range = forbiddenRange(address, policy);
    if (range !== undefined) {
      throw new DestinationError(
        'forbidden-address',
        `The host ${host} resolves to ${address} (${range}); webhooks go to public addresses only.`,
      );
    }
  }
  return addresses;
}
