import { Badge } from '@mantine/core';

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return enabled ? (
    <Badge color="green" variant="dot">
      enabled
    </Badge>
  ) : (
    <Badge color="orange" variant="dot">
      disabled
    </Badge>
  );
}
