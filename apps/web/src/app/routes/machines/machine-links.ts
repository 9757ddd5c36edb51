import { paths } from '@/config/paths';

/** Where a machine on a dashboard leads: its coin and card transactions, and its settings. */
export const machineLinks = {
  coin: paths.manager.machineCoin.getHref,
  card: paths.manager.machineCard.getHref,
  machine: paths.manager.device.getHref,
};
