/**
 * Every route of the route table (docs/web-app.md, "Routes"). Routes and links use these, never string literals,
 * so that a page can move without hunting for its links.
 */
export const paths = {
  // Public
  home: { path: '/', getHref: () => '/' },
  login: { path: '/login', getHref: () => '/login' },
  logout: { path: '/logout', getHref: () => '/logout' },
  accountManagement: { path: '/a', getHref: () => '/a' },
  legacyRegister: { path: '/b', getHref: () => '/b' },
  genericRegister: { path: '/ca', getHref: () => '/ca' },

  /** Alarms of the machines in scope (every signed-in role), optionally filtered to one machine. */
  alarms: {
    path: '/alarms',
    getHref: (machineId?: string) =>
      machineId ? `/alarms?status=all&machineId=${encodeURIComponent(machineId)}` : '/alarms',
  },

  /** M-Pesa payments (admin and manager); admins match unmatched ones and upload statements. */
  payments: { path: '/payments', getHref: () => '/payments' },

  // Admin-only
  admin: {
    dashboard: { path: '/maindashboard', getHref: () => '/maindashboard' },
    addEsp32: { path: '/add-esp32', getHref: () => '/add-esp32' },
    register: { path: '/register', getHref: () => '/register' },
    users: { path: '/admin/users', getHref: () => '/admin/users' },
    profile: { path: '/admin/profile', getHref: () => '/admin/profile' },
    settings: { path: '/admin/settings', getHref: () => '/admin/settings' },
    audit: { path: '/admin/audit', getHref: () => '/admin/audit' },
  },

  // Manager-only
  manager: {
    dashboard: { path: '/manager/dashboard', getHref: () => '/manager/dashboard' },
    approveFloat: { path: '/manager/approv/float', getHref: () => '/manager/approv/float' },
    cardInfo: {
      path: '/manager/card/info',
      /** The Registered Cards panel, opened on a machine when one is given. */
      getHref: (machineId?: string) =>
        machineId ? `/manager/card/info?machineId=${encodeURIComponent(machineId)}` : '/manager/card/info',
    },
    cardInfoSummary: { path: '/manager/card/info/summary', getHref: () => '/manager/card/info/summary' },
    machineUsage: { path: '/manager/machine/usage', getHref: () => '/manager/machine/usage' },
    machineActivity: { path: '/manager/machine/activity', getHref: () => '/manager/machine/activity' },
    registerAttendant: { path: '/manager/attendant/register', getHref: () => '/manager/attendant/register' },
    removeAttendant: { path: '/manager/attendant/remove', getHref: () => '/manager/attendant/remove' },
    profile: { path: '/manager/profile/acc', getHref: () => '/manager/profile/acc' },
    machineCard: {
      path: '/machine/:machineId/card',
      getHref: (machineId: string) => `/machine/${encodeURIComponent(machineId)}/card`,
    },
    machineCoin: {
      path: '/machine/:machineId/coin',
      getHref: (machineId: string) => `/machine/${encodeURIComponent(machineId)}/coin`,
    },
    device: { path: '/device/:espId', getHref: (espId: string) => `/device/${encodeURIComponent(espId)}` },
    machineHealth: {
      path: '/machine/:machineId/health',
      getHref: (machineId: string) => `/machine/${encodeURIComponent(machineId)}/health`,
    },
    /** A machine's own view: its sales of a day and of the month, and links to its other pages. */
    machine: {
      path: '/machine/:machineId',
      getHref: (machineId: string) => `/machine/${encodeURIComponent(machineId)}`,
    },
  },

  // Attendant-only
  attendant: {
    dashboard: { path: '/att/manager/dashboard', getHref: () => '/att/manager/dashboard' },
    float: { path: '/att/manager/float', getHref: () => '/att/manager/float' },
    /** The cards of the attendant's machine: balances, status, history, top-up, block and replace. */
    cards: { path: '/att/manager/cards', getHref: () => '/att/manager/cards' },
    /** My Account: the attendant's profile and password change. */
    account: { path: '/att/account', getHref: () => '/att/account' },
  },
} as const;
