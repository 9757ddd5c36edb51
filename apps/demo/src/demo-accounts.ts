/** The demo logins (docs/operations.md, "Demo data"), created by `npm run demo` when absent, never by `npm start`. */
export const DEMO_PASSWORD = 'demo1234';
export const DEMO_ACCOUNTS = {
  admin: {
    email: 'admin@demo.local',
    phone: '+255700000001',
    firstName: 'Asha',
    lastName: 'Mwakyusa',
    username: 'demo-admin',
  },
  manager: {
    email: 'manager@demo.local',
    phone: '+255700000002',
    firstName: 'Baraka',
    lastName: 'Njoroge',
    username: 'Maji Safi Ltd',
  },
  attendant: {
    email: 'attendant@demo.local',
    phone: '+255700000003',
    firstName: 'Neema',
    lastName: 'Otieno',
    username: 'neema.otieno',
    /** The company the attendant works for, the manager's. */
    companyName: 'Maji Safi Ltd',
  },
} as const;

export const DEMO_MACHINE_COUNT = 12;
export const DEMO_LOCATIONS = [
  'Kariakoo Market',
  'Mwenge Bus Stand',
  'Ubungo Terminal',
  'Sinza Mori',
  'Tegeta Nyuki',
  'Mbezi Beach',
  'Kimara Stop Over',
  'Temeke Stereo',
  'Buguruni Sokoni',
  'Kigamboni Ferry',
  'Mikocheni B',
  'Tabata Segerea',
];

export const demoEspId = (i: number) => `ESP32-DEMO-${String(i + 1).padStart(2, '0')}`;
export const demoMac = (i: number) => `DE:A0:00:00:00:${(i + 1).toString(16).padStart(2, '0').toUpperCase()}`;
