import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { alarmRoutes } from '@wv/contracts';
import { healthKeys } from './health-keys';

export const getTelemetry = (espId: string, from: string, to: string) =>
  callApi(alarmRoutes.machineTelemetry, { params: { espId }, query: { from, to } });

export const getTelemetryQueryOptions = (espId: string, from: string, to: string) =>
  queryOptions({ queryKey: healthKeys.telemetry(espId, from, to), queryFn: () => getTelemetry(espId, from, to) });

/** GET /machines/{espId}/telemetry: readings from `from` to `to` (ISO), oldest first, downsampled by the server. */
export const useTelemetry = (espId: string, from: string, to: string) =>
  useQuery({ ...getTelemetryQueryOptions(espId, from, to), placeholderData: keepPreviousData });
