'use client';

import {
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError, formErrors } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { UpdatePlanDocument } from '../../_components/documents';

interface PlanSettings {
  id: string;
  name: string;
  description: string;
  slidingLogMaxLimit?: number | null;
  tenantCounterResets: boolean;
}

/**
 * A plan's name, description, cap on sliding-log limits (empty: the platform's) and whether its
 * tenants' admins may reset an identifier's counters.
 */
export function PlanSettingsModal({
  plan,
  platformCap,
  onClose,
}: {
  plan: PlanSettings;
  /** The cap that applies without the plan's own (shown as the hint). */
  platformCap: number | undefined;
  onClose: () => void;
}) {
  const [{ fetching }, update] = useMutation(UpdatePlanDocument);
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    initialValues: {
      name: plan.name,
      description: plan.description,
      slidingLogMaxLimit: (plan.slidingLogMaxLimit ?? '') as number | '',
      tenantCounterResets: plan.tenantCounterResets,
    },
    validate: { name: (v) => (v.trim() ? null : 'Enter a name') },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    const result = await update({
      id: plan.id,
      input: {
        name: values.name.trim(),
        description: values.description.trim(),
        slidingLogMaxLimit: values.slidingLogMaxLimit === '' ? null : values.slidingLogMaxLimit,
        tenantCounterResets: values.tenantCounterResets,
      },
    });
    if (result.error) {
      const error = apiError(result.error);
      form.setErrors(formErrors(error.issues));
      setFailure(error.message);
      return;
    }
    notifications.show({ message: `The plan ${values.name.trim()} is saved.` });
    onClose();
  });
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title="Edit the plan"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            {...form.getInputProps('description')}
          />
          <NumberInput
            label="Sliding log cap"
            description={`Most units per window a sliding window log rule may allow under this plan. Empty: the platform's cap${
              platformCap === undefined ? '' : ` (${formatNumber(platformCap)})`
            }. Rules above a new cap keep working until edited.`}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            {...form.getInputProps('slidingLogMaxLimit')}
          />
          <Switch
            label="Tenant admins may reset counters"
            description="From an identifier's page, as operators can. Off: a tenant that resets its own callers' quota would get more than its plan."
            {...form.getInputProps('tenantCounterResets', { type: 'checkbox' })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Save the plan
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
