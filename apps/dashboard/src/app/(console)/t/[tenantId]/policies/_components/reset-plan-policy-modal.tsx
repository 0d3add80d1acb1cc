'use client';

import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError } from '@/lib/errors';
import { formatParam } from '@/lib/rules';
import type { PolicySaved } from './change-plan-policy-modal';
import { ChangePlanPolicyDocument } from './documents';
import { changeableRules, windowChanges } from './plan-change';
import type { EffectivePolicyView } from './policy-card';
import { WindowChangeAlert } from './window-change-alert';

/**
 * Confirms dropping the tenant's change of a plan's template (an empty change): the values it
 * set go back to the plan's, and a window going back starts its rule's counters afresh.
 */
export function ResetPlanPolicyModal({
  tenantId,
  policy,
  onClose,
  onSaved,
}: {
  tenantId: string;
  policy: EffectivePolicyView;
  onClose: () => void;
  onSaved: (saved: PolicySaved) => void;
}) {
  const [{ fetching }, change] = useMutation(ChangePlanPolicyDocument);
  const [failure, setFailure] = useState<string>();
  const rules = changeableRules(policy.rules);
  const changed = rules.flatMap((rule) =>
    rule.params.flatMap((param) =>
      param.source === 'TENANT' && param.current !== null
        ? [{ rule: rule.name, param, value: param.current }]
        : [],
    ),
  );
  const windows = windowChanges(rules, []);
  const confirm = async () => {
    const result = await change({ input: { tenantId, policy: policy.name, rules: [] } });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    onSaved({
      message: `${policy.name} has the plan’s values again.`,
      countersReset: result.data?.changePlanPolicy.countersReset ?? [],
    });
  };
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={`Back to the plan’s values of ${policy.name}`}
    >
      <Stack>
        <Text size="sm">These values of yours go back to the plan’s, from the next check:</Text>
        <List size="sm">
          {changed.map(({ rule, param, value }) => (
            <List.Item key={`${rule}/${param.name}`}>
              {rule} › {param.label}: {formatParam(param.name, value)}
            </List.Item>
          ))}
        </List>
        {windows.length > 0 && <WindowChangeAlert changes={windows} />}
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={fetching} onClick={() => void confirm()}>
            Back to the plan’s values
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
