import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getUsers = () => callApi(apiRoutes.adminUsers);

export const getUsersQueryOptions = () => queryOptions({ queryKey: queryKeys.users, queryFn: getUsers });

/** GET /admin/users: every user with role and devices (admin). */
export const useUsers = () => useQuery(getUsersQueryOptions());
