import { Badge } from '@mantine/core';

export function TenantStatusBadge({ status }: { status: string }) {
  return status === 'ACTIVE' ? (
    <Badge color="green" variant="light">
      active
    </Badge>
  ) : (
    <Badge color="orange" variant="light">
      suspended
    </Badge>
  );
}
