'use client';

import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from 'urql';
import { tenantPath } from '@/components/navigation';
import { apiError, formErrors } from '@/lib/errors';
import { CreateTenantDocument } from './documents';
import { slugFrom } from '@/lib/slug';

export function CreateTenantModal({
  opened,
  onClose,
  plans,
}: {
  opened: boolean;
  onClose: () => void;
  plans: { id: string; name: string }[];
}) {
  const router = useRouter();
  const [{ fetching }, create] = useMutation(CreateTenantDocument);
  const [failure, setFailure] = useState<string>();
  const [slugEdited, setSlugEdited] = useState(false);
  const form = useForm({
    initialValues: { name: '', slug: '', planId: plans[0]?.id ?? '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Enter a name'),
      slug: (v) =>
        /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(v)
          ? null
          : '1 to 63 lowercase letters, digits or inner hyphens',
      planId: (v) => (v ? null : 'Choose a plan'),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    const result = await create({ input: { ...values, name: values.name.trim() } });
    if (result.error) {
      const error = apiError(result.error);
      form.setErrors(formErrors(error.issues));
      setFailure(error.message);
      return;
    }
    if (result.data) router.push(tenantPath(result.data.createTenant.id, ''));
  });
  return (
    <Modal opened={opened} onClose={onClose} title="New tenant">
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <TextInput
            label="Name"
            required
            data-autofocus
            {...form.getInputProps('name')}
            onChange={(event) => {
              form.setFieldValue('name', event.currentTarget.value);
              if (!slugEdited) form.setFieldValue('slug', slugFrom(event.currentTarget.value));
            }}
          />
          <TextInput
            label="Slug"
            description="Unique; lowercase letters, digits and hyphens"
            required
            {...form.getInputProps('slug')}
            onChange={(event) => {
              setSlugEdited(true);
              form.setFieldValue('slug', event.currentTarget.value);
            }}
          />
          <Select
            label="Plan"
            required
            data={plans.map((p) => ({ value: p.id, label: p.name }))}
            {...form.getInputProps('planId')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Create the tenant
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
