import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { GraphqlContext } from '../graphql/graphql-context';
import type { LiveCaller } from './live-access.service';

/** On a guarded subscription: the signed-in caller and its connection (the upgrade request). */
export const CurrentLiveCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): LiveCaller => {
    const { auth, req } = GqlExecutionContext.create(context).getContext<GraphqlContext>();
    if (!auth) throw new Error('@CurrentLiveCaller() on a resolver that is @Public()');
    return { auth, connection: req };
  },
);
