import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { clearSession } from '@/lib/session';

/** Removes token, role and expiry and forgets every cached answer of the signed-out user. */
export function useSignOut(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    clearSession('signed-out');
    queryClient.clear();
  }, [queryClient]);
}
