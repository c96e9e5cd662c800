import type { ApiClient } from '../api/create-api-client';
import { ApiError } from '../api/errors';

/** SWR fetcher over the API client's GET: resolves the data or throws (400 as an ApiError). */
export function createFetcher(client: ApiClient) {
  return async function fetcher<T>(path: string): Promise<T> {
    const result = await client.get<T>(path);
    if (result.isError) throw new ApiError(400, result.error);
    return result.data as T;
  };
}
