/**
 * The console's navigation. Each page adds its entry here; a role sees only what it may open
 * (the pages refuse the others anyway).
 */
export interface NavItem {
  label: string;
  /** Operator items: the path. Tenant items: the path under `/t/<tenantId>`. */
  path: string;
}

/** The platform's pages: operators only. */
export const operatorNav: NavItem[] = [
  { label: 'Tenants', path: '/tenants' },
  { label: 'Plans', path: '/plans' },
  { label: 'Users', path: '/users' },
  { label: 'Audit log', path: '/audit' },
  { label: 'Platform', path: '/platform' },
];

/** A tenant's pages: its members (viewers read them), and operators for any tenant. */
export const tenantNav: NavItem[] = [
  { label: 'Overview', path: '' },
  { label: 'Policies', path: '/policies' },
  { label: 'Request log', path: '/log' },
  { label: 'Playground', path: '/playground' },
  { label: 'Overrides', path: '/overrides' },
  { label: 'Versions', path: '/versions' },
  { label: 'API keys', path: '/keys' },
  { label: 'Webhooks', path: '/webhooks' },
  { label: 'Members', path: '/members' },
];

export const tenantPath = (tenantId: string, path: string) =>
  `/t/${encodeURIComponent(tenantId)}${path}`;

/** An identifier's page under one of the tenant's policies (reached from the pages that list identifiers). */
export const identifierPath = (tenantId: string, policy: string, identifier: string) =>
  `${tenantPath(tenantId, '/identifier')}?${new URLSearchParams({ policy, identifier }).toString()}`;

/** The overrides page with its form open for a new override of `identifier` under `policy`. */
export const newOverridePath = (tenantId: string, policy: string, identifier: string) =>
  `${tenantPath(tenantId, '/overrides')}?${new URLSearchParams({ new: policy, for: identifier }).toString()}`;
