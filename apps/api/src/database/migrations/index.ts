import { Foundation1763700000000 } from './1763700000000-foundation.js';
import { UsernameNotUnique1763700050000 } from './1763700050000-username-not-unique.js';
import { DeviceBridge1763700100000 } from './1763700100000-device-bridge.js';
import { SalesViews1763700200000 } from './1763700200000-sales-views.js';
import { MoneyLedger1763700300000 } from './1763700300000-money-ledger.js';
import { ProvisioningTrust1763700400000 } from './1763700400000-provisioning-trust.js';
import { ForeignCardFlag1763700500000 } from './1763700500000-foreign-card-flag.js';
import { UniqueUsernames1763700600000 } from './1763700600000-unique-usernames.js';
import { MachineHealthAlarms1763700700000 } from './1763700700000-machine-health-alarms.js';
import { SaleSequence1763700750000 } from './1763700750000-sale-sequence.js';
import { CardLists1763700800000 } from './1763700800000-card-lists.js';
import { Notifications1763700900000 } from './1763700900000-notifications.js';
import { MobileMoney1763701050000 } from './1763701050000-mobile-money.js';
import { MachineCoordinates1763701200000 } from './1763701200000-machine-coordinates.js';
import { UserDeactivation1763710100000 } from './1763710100000-user-deactivation.js';
import { LanguageAndReceipts1763710500000 } from './1763710500000-language-and-receipts.js';
import { UnknownPush1763710600000 } from './1763710600000-unknown-push.js';
import { MqttIdentityChanges1763710700000 } from './1763710700000-mqtt-identity-changes.js';
import { MachineOnlineVia1763710800000 } from './1763710800000-machine-online-via.js';
import { SalesPartitions1763710900000 } from './1763710900000-sales-partitions.js';
import { SmsHandedOver1763711000000 } from './1763711000000-sms-handed-over.js';
import { RollupHotUpdates1763711100000 } from './1763711100000-rollup-hot-updates.js';

/** Every migration, in order. The schema changes only through these (never `synchronize`). */
export const migrations = [
  Foundation1763700000000,
  UsernameNotUnique1763700050000,
  DeviceBridge1763700100000,
  SalesViews1763700200000,
  MoneyLedger1763700300000,
  ProvisioningTrust1763700400000,
  ForeignCardFlag1763700500000,
  UniqueUsernames1763700600000,
  MachineHealthAlarms1763700700000,
  SaleSequence1763700750000,
  CardLists1763700800000,
  Notifications1763700900000,
  MobileMoney1763701050000,
  MachineCoordinates1763701200000,
  UserDeactivation1763710100000,
  LanguageAndReceipts1763710500000,
  UnknownPush1763710600000,
  MqttIdentityChanges1763710700000,
  MachineOnlineVia1763710800000,
  SalesPartitions1763710900000,
  SmsHandedOver1763711000000,
  RollupHotUpdates1763711100000,
];
