import { Badge } from '@mantine/core';

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return enabled ? (
    <Badge color="green" variant="dot">
      enabled
    </Badge>
  ) : (
    <Badge color="gray" variant="dot">
      disabled
    </Badge>
  );
}
