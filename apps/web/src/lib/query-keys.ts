/**
 * Query keys that more than one feature reads, invalidates or patches from live events (a device
 * changing hands touches the admin's device lists and everybody's "my devices"; a card load spends
 * the float balance shown beside the form). Features never import each other; they share these keys.
 */
export const queryKeys = {
  esp32Ids: ['esp32-ids'] as const,
  allEsp32Ids: ['esp32-ids', 'all'] as const,
  assignedEsp32Ids: ['esp32-ids', 'assigned'] as const,
  myDevices: ['my-devices'] as const,
  users: ['users'] as const,
  userInfo: ['user-info'] as const,
  macAddresses: ['mac-addresses'] as const,
  managerDeviceIds: ['manager-device-ids'] as const,
  attendants: ['attendants'] as const,
  attendantInfoAll: ['attendant-info'] as const,
  attendantInfo: (esp32Id: string) => ['attendant-info', esp32Id] as const,

  // Sales views (patched by the `sale`, `summary`, `machine.status` and `config.applied` events).
  dailySummaryAll: ['daily-summary'] as const,
  dailySummary: (date: string) => ['daily-summary', date] as const,
  monthlySummaryAll: ['monthly-summary'] as const,
  monthlySummary: (date: string) => ['monthly-summary', date] as const,
  fleetOverviewAll: ['fleet-overview'] as const,
  fleetOverview: (date: string) => ['fleet-overview', date] as const,
  recentSales: ['recent-sales'] as const,
  transactionsAll: ['transactions'] as const,
  transactions: (kind: 'card' | 'coin', machineId: string, query: object) =>
    ['transactions', kind, machineId, query] as const,

  // Device settings.
  wifi: (espId: string) => ['wifi', espId] as const,
  machineSettings: (espId: string) => ['machine-settings', espId] as const,
  configState: (espId: string) => ['config-state', espId] as const,

  // Cards and float (patched by `float.requested` and `float.updated`).
  floatBalance: ['float-balance'] as const,
  attendantFloatRequests: ['float-requests', 'attendant'] as const,
  managerFloatRequests: ['float-requests', 'manager'] as const,
  cardsAll: ['cards'] as const,
  cardSummary: ['cards', 'summary'] as const,
  machineCards: (esp32Id: string) => ['cards', 'machine', esp32Id] as const,
  cardHistory: (cardId: string) => ['cards', 'history', cardId] as const,
  /** Under `cards`, so that every card change also asks again whether the machine's list caught up. */
  cardListSync: (espId: string) => ['cards', 'sync', espId] as const,

  audit: (query: object) => ['audit', query] as const,
};
