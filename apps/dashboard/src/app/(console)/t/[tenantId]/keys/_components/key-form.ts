import dayjs from 'dayjs';
import type { ApiKeyScope } from '@/generated/gql/graphql';

/** What the create and edit dialogs hold; `expiresAt` is the picker's local `YYYY-MM-DD HH:mm:ss`. */
export interface KeyFormValues {
  name: string;
  scopes: ApiKeyScope[];
  policyNames: string[];
  expiresAt: string | null;
}

const POLICY_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** The control plane's rules, checked before sending (it checks again). */
export const keyFormRules = {
  name: (value: string) =>
    value.trim().length === 0
      ? 'Enter a name'
      : value.trim().length > 100
        ? 'At most 100 characters'
        : null,
  scopes: (value: ApiKeyScope[]) => (value.length === 0 ? 'Choose at least one scope' : null),
  policyNames: (value: string[]) =>
    value.find((name) => !POLICY_NAME.test(name))
      ? 'Policy names are lowercase letters, digits, _ and -'
      : null,
  expiresAt: (value: string | null) =>
    value && !dayjs(value).isAfter(dayjs()) ? 'Choose a time in the future' : null,
};

export const emptyKeyForm = (): KeyFormValues => ({
  name: '',
  scopes: ['CHECK'],
  policyNames: [],
  expiresAt: null,
});

/** A key's settings as the form's values. */
export function keyFormOf(key: {
  name: string;
  scopes: ApiKeyScope[];
  policyNames: string[];
  expiresAt?: string | null;
}): KeyFormValues {
  return {
    name: key.name,
    scopes: [...key.scopes],
    policyNames: [...key.policyNames],
    expiresAt: key.expiresAt ? dayjs(key.expiresAt).format('YYYY-MM-DD HH:mm:ss') : null,
  };
}

/** The form's values as the API's input: trimmed name, an ISO expiry (null: never). */
export function keyInputOf(values: KeyFormValues) {
  return {
    name: values.name.trim(),
    scopes: values.scopes,
    policyNames: values.policyNames,
    expiresAt: values.expiresAt ? dayjs(values.expiresAt).toISOString() : null,
  };
}
