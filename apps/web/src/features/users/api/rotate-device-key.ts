import { useMutation } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';

export const rotateDeviceKey = (espId: string) => callApi(apiRoutes.rotateKey, { params: { espId } });

/** POST /admin/devices/{espId}/rotate-key: the answer holds the new key, shown once; the old one stops working. */
export const useRotateDeviceKey = () => useMutation({ mutationFn: rotateDeviceKey });
