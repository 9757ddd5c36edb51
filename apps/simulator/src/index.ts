/** The fleet simulator as a library: the API's tests and the demo drive machines through this. */
export { Fleet, type FleetEvents } from './fleet.js';
export type { FleetOptions, FleetStats } from './fleet.types.js';
export { Machine, type MeteredSale, type SaleAttempt } from './machine.js';
export { CardList, localDay, type CardRefusal, type CardRefusalReason } from './card-list.js';
export {
  describeFaultStep,
  FAULT_KINDS,
  FAULTS,
  FaultSpecError,
  parseFaultSchedule,
  parseFaultSpec,
  type FaultKind,
  type FaultStep,
  type MachineRef,
} from './fault.js';
export { FaultScheduler, type FaultSchedulerHooks, type FaultTarget } from './fault-scheduler.js';
export { defaultHealthParams, HealthModel, type HealthParams, type TelemetryMessage } from './machine-health.js';
export {
  DEFAULT_FIRMWARE,
  type MachineCredentials,
  type MachineEvents,
  type MachineIdentity,
  type MachineOptions,
  type MachineState,
  type MachineStats,
  type ProvisioningIdentity,
} from './machine.types.js';
export { generateCredentials, generateMacIdentities, parseCardList, parseCredentialsList } from './machine-identity.js';
export { DAR_ES_SALAAM_SITES, machinePosition, type SimulatedPosition } from './machine-position.js';
export { DEFAULT_TARIFFS, priceOf, type Tariffs } from './tariff.js';
export { generateSale, type SaleContext } from './sale-generator.js';
export { dayCurveFactor, drawHourOfDay, HOURLY_WEIGHTS, localHour, DEFAULT_TIME_ZONE } from './day-curve.js';
export { createRandom, mulberry32, type Random } from './prng.js';
export { formatSummary } from './summary.js';
