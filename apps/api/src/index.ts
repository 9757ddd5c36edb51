/**
 * The API as a library: what `npm run demo` (apps/demo) needs to start the program and write its demo
 * data. Kept small on purpose: other programs import the API only through this file, so its modules may
 * move without touching them (docs/architecture.md, "Modules and conventions").
 */
export { assertPortFree, startApp, type RunningApp } from './bootstrap.js';
export { ConfigError, loadConfig, type AppConfig } from './config/app-config.js';
export { hashPassword } from './user/password-hasher.js';
export { DeviceKeyService } from './device/device-key.service.js';
export { DeviceEntity } from './device/device.entity.js';
export { UserEntity } from './user/user.entity.js';
export { BrokerService } from './device-bridge/broker.service.js';
