'use client';

import {
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError, formErrors } from '@/lib/errors';
import { slugFrom } from '@/lib/slug';
import { CreatePlanDocument } from './documents';

/** A new plan: its slug, name, description and optional cap on sliding-log limits. */
export function CreatePlanModal({ onClose }: { onClose: () => void }) {
  const router = useRouter();
  const [{ fetching }, create] = useMutation(CreatePlanDocument);
  const [failure, setFailure] = useState<string>();
  const [slugEdited, setSlugEdited] = useState(false);
  const form = useForm({
    initialValues: {
      name: '',
      slug: '',
      description: '',
      slidingLogMaxLimit: '' as number | '',
    },
    validate: {
      name: (v) => (v.trim() ? null : 'Enter a name'),
      slug: (v) =>
        /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(v)
          ? null
          : '1 to 63 lowercase letters, digits or inner hyphens',
    },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    const result = await create(
      {
        input: {
          slug: values.slug,
          name: values.name.trim(),
          description: values.description.trim(),
          slidingLogMaxLimit: values.slidingLogMaxLimit === '' ? null : values.slidingLogMaxLimit,
        },
      },
      { additionalTypenames: ['Plan'] },
    );
    if (result.error) {
      const error = apiError(result.error);
      form.setErrors(formErrors(error.issues));
      setFailure(error.message);
      return;
    }
    if (result.data) router.push(`/plans/${encodeURIComponent(result.data.createPlan.id)}`);
  });
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ 'aria-label': 'Close' }} title="New plan">
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
          <Textarea
            label="Description"
            autosize
            minRows={2}
            {...form.getInputProps('description')}
          />
          <NumberInput
            label="Sliding log cap"
            description="Most units per window a sliding window log rule may allow under this plan. Empty: the platform's cap."
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            {...form.getInputProps('slidingLogMaxLimit')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Create the plan
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
