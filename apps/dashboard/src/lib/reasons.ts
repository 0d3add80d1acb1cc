/**
 * The engine's reason codes (`DecisionReason` in libs/engine), in the words the log uses: the
 * reason filter's choices and each entry's explanation.
 */
export const REASONS: readonly { code: string; label: string; explains: string }[] = [
  { code: 'allowed', label: 'Allowed', explains: 'Every rule had room.' },
  { code: 'rule', label: 'Rule', explains: 'A rule of the policy had no room for this cost.' },
  {
    code: 'local',
    label: 'Local fail mode',
    explains:
      'Redis did not answer and the policy’s fail mode is local: the data plane’s in-memory limiter decided with the same rules, counting that process’s traffic only.',
  },
  {
    code: 'shadow',
    label: 'Shadow',
    explains:
      'Allowed because the policy runs in shadow mode; enforced, a rule would have denied it.',
  },
  {
    code: 'fail-open',
    label: 'Fail-open',
    explains: 'Redis did not answer and the policy fails open: allowed unchecked.',
  },
  {
    code: 'fail-closed',
    label: 'Fail-closed',
    explains: 'Redis did not answer and the policy fails closed: denied unchecked.',
  },
  {
    code: 'suspended',
    label: 'Suspended',
    explains: 'The tenant is suspended: every check is denied.',
  },
];

export function reasonLabel(code: string): string {
  return REASONS.find((r) => r.code === code)?.label ?? code;
}

export function reasonExplained(code: string): string {
  return REASONS.find((r) => r.code === code)?.explains ?? `The engine’s reason: ${code}.`;
}
