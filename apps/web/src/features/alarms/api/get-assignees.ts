import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface Person {
  userId: string;
  name: string;
}

/**
 * The people an alarm of `machineId` can be assigned to, besides a manager themselves: the owner manager
 * and the machine's attendant (docs/alarms.md). A manager lists their attendants, an admin every user;
 * an attendant cannot assign. The same lists name the people in an alarm's history.
 */
export function usePeople(role: string | null, machineId: string | null) {
  const attendants = useQuery({
    queryKey: queryKeys.attendants,
    queryFn: () => callApi(apiRoutes.listAttendants),
    enabled: role === 'manager',
  });
  const users = useQuery({
    queryKey: queryKeys.users,
    queryFn: () => callApi(apiRoutes.adminUsers),
    enabled: role === 'admin',
  });

  const known: Person[] = [
    ...(attendants.data ?? []).map((a) => ({ userId: a.userId, name: `${a.firstName} ${a.lastName}` })),
    ...(users.data ?? []).map((u) => ({ userId: u.userId, name: `${u.firstName} ${u.lastName}` })),
  ];
  const candidates: Person[] =
    role === 'manager'
      ? (attendants.data ?? [])
          .filter((a) => a.esp32Id === machineId)
          .map((a) => ({ userId: a.userId, name: `${a.firstName} ${a.lastName}` }))
      : role === 'admin'
        ? (users.data ?? [])
            .filter((u) => u.role !== 'admin' && u.devices.some((d) => d.esp32Id === machineId))
            .map((u) => ({ userId: u.userId, name: `${u.firstName} ${u.lastName}` }))
        : [];
  return { known, candidates };
}
