import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isUnauthenticated } from './client.js';

/**
 * TanStack Query for one app. A 401 anywhere means the session ended: the session query is
 * reset, and the app's session guard sends the person to sign-in (and back afterwards).
 * Input errors (4xx) are not retried.
 */
export function createQueryClient(sessionKey: readonly unknown[]) {
  const onError = (e: unknown) => {
    if (isUnauthenticated(e)) void client.resetQueries({ queryKey: sessionKey });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (e, q) => q.queryKey[0] !== sessionKey[0] && onError(e) }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
  return client;
}
