/** The control plane's rule for a new password, checked before it is sent. */
export const MIN_PASSWORD_LENGTH = 12;

/** Mantine form rules for a new password in `field` and its repetition in `confirm`. */
export function newPasswordRules<F extends string>(field: F) {
  return {
    [field]: (value: string) =>
      value.length >= MIN_PASSWORD_LENGTH ? null : `Use at least ${MIN_PASSWORD_LENGTH} characters`,
    confirm: (value: string, values: Record<string, unknown>) =>
      value === values[field] ? null : 'The two passwords differ',
  } as Record<F | 'confirm', (value: string, values: Record<string, unknown>) => string | null>;
}
