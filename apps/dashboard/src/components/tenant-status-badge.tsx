import { Badge } from '@mantine/core';

export function TenantStatusBadge({ status }: { status: string }) {
  return status === 'ACTIVE' ? (
    <Badge color="green" variant="dot">
      active
    </Badge>
  ) : (
    <Badge color="orange" variant="dot">
      suspended
    </Badge>
  );
}
