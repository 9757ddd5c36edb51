import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ledgerRoutes, type AUDIT_ENTITIES } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface AuditFilters {
  actorId?: string;
  entity?: (typeof AUDIT_ENTITIES)[number];
  /** `YYYY-MM-DD` in the app's time zone, inclusive. */
  from?: string;
  to?: string;
}

export interface AuditQuery extends AuditFilters {
  page: number;
  limit: number;
}

export const getAudit = (query: AuditQuery) => callApi(ledgerRoutes.audit, { query });

export const getAuditQueryOptions = (query: AuditQuery) =>
  queryOptions({
    queryKey: queryKeys.audit(query),
    queryFn: () => getAudit(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** GET /admin/audit: who changed what and when, newest first, filtered by actor, entity and time. */
export const useAudit = (query: AuditQuery) => useQuery(getAuditQueryOptions(query));
