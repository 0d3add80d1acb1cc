import { Badge } from '@mantine/core';
import type { KeyStatus } from './key-status';

const COLORS: Record<KeyStatus, string> = { active: 'green', expired: 'orange', revoked: 'red' };

export function KeyStatusBadge({ status }: { status: KeyStatus }) {
  return (
    <Badge color={COLORS[status]} variant="dot">
      {status}
    </Badge>
  );
}
