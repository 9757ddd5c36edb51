export {
  DarajaSandbox,
  newReceipt,
  type AutoCustomer,
  type CallbackAttempt,
  type DarajaSandboxOptions,
  type DeliveryPlan,
  type SandboxPush,
  type StatementLine,
} from './daraja-sandbox.js';
export {
  c2bBody,
  darajaTimestamp,
  stkCallbackBody,
  stkPassword,
  STK_RESULT,
  type StkOutcome,
} from './daraja-payloads.js';
export { statementCsv } from './statement-file.js';
export { startDemoDaraja, type DemoDaraja } from './demo-daraja.js';
