import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getUserInfo = () => callApi(apiRoutes.userInfo);

export const getUserInfoQueryOptions = () => queryOptions({ queryKey: queryKeys.userInfo, queryFn: getUserInfo });

/** GET /user/info: the caller's own profile. */
export const useUserInfo = () => useQuery(getUserInfoQueryOptions());
