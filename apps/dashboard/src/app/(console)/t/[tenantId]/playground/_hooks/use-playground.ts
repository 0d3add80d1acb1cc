'use client';

import { useRef, useState } from 'react';
import { useClient, useMutation, type CombinedError } from 'urql';
import type {
  PlaygroundCheckMutation,
  PlaygroundDecisionFieldsFragment,
  PlaygroundMode,
} from '@/generated/gql/graphql';
import { apiError, formErrors } from '@/lib/errors';
import { PlaygroundCheckDocument, PlaygroundPeekDocument } from '../_components/documents';

export type PlaygroundDecision = PlaygroundDecisionFieldsFragment;
export type PlaygroundRun = PlaygroundCheckMutation['playgroundCheck'];

export interface CheckValues {
  policy: string;
  identifier: string;
  realIdentifier: boolean;
  cost: number;
  count: number;
  mode: PlaygroundMode;
}

/** What the page shows: the last run's decisions (`id` counts the runs), or the last peek. */
export type PlaygroundResult =
  | { kind: 'run'; id: number; policy: string; run: PlaygroundRun }
  | { kind: 'peek'; decision: PlaygroundDecision };

/**
 * Fires checks and peeks for the page, keeping the last result; a refusal is kept as field
 * errors (keyed as the form's fields) and a message for the rest.
 */
export function usePlayground(tenantId: string) {
  const client = useClient();
  const [running, runChecks] = useMutation(PlaygroundCheckDocument);
  const [peeking, setPeeking] = useState(false);
  const [result, setResult] = useState<PlaygroundResult>();
  const [errors, setErrors] = useState<{ fields: Record<string, string>; message?: string }>({
    fields: {},
  });
  const runs = useRef(0);
  /** Field issues under the form's fields (`prefix` stripped), the message when none is one. */
  const refused = (error: CombinedError, prefix: string) => {
    const { issues, message } = apiError(error);
    const fields = formErrors(issues, prefix);
    setErrors({ fields, ...(Object.keys(fields).length === 0 && { message }) });
  };

  const fire = async (values: CheckValues) => {
    const response = await runChecks({ input: { tenantId, ...values } });
    if (response.error) {
      refused(response.error, 'input.');
      return;
    }
    setErrors({ fields: {} });
    const run = response.data?.playgroundCheck;
    if (run) setResult({ kind: 'run', id: (runs.current += 1), policy: values.policy, run });
  };

  const peek = async (values: CheckValues) => {
    setPeeking(true);
    const { policy, identifier, realIdentifier } = values;
    const response = await client
      .query(
        PlaygroundPeekDocument,
        { tenantId, policy, identifier, realIdentifier },
        { requestPolicy: 'network-only' },
      )
      .toPromise();
    setPeeking(false);
    if (response.error) {
      refused(response.error, '');
      return;
    }
    setErrors({ fields: {} });
    const decision = response.data?.playgroundPeek;
    if (decision) setResult({ kind: 'peek', decision });
  };

  return { fire, peek, result, errors, busy: running.fetching || peeking };
}
