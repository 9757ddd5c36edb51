export { createBroker } from './create-broker.js';
export { SALE_WAIT_BOUNDS_MS } from './broker-stats.js';
export type {
  BrokerHooks,
  BrokerLogger,
  BrokerOptions,
  BrokerStats,
  ConnectedClient,
  DeviceIdentity,
  DeviceMessage,
  ProvisioningVerdict,
  PublishOptions,
  RefusalReason,
  SaleEnvelope,
  WvBroker,
} from './broker.types.js';
export { createJsonLogger, silentLogger } from './logger.js';
export {
  authorizeDevicePublish,
  authorizeDeviceSubscribe,
  deviceTopics,
  type AclSubject,
  type DevicePublishKind,
  type PublishDecision,
  type SubscribeDecision,
} from './topic-acl.js';
export { SALE_FLUSH, SaleBatcher, type SaleBatcherOptions } from './sale-batcher.js';
