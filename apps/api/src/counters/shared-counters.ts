/** Counters shared by every process of a deployment live in Redis (workers and API may run apart). */
export const SHARED_COUNTERS = {
  salesIngested: 'metrics:sales_ingested',
  salesDuplicates: 'metrics:sales_duplicates',
  deadLetters: 'metrics:dead_letters',
  brokerRefusals: 'metrics:broker_refusals',
  brokerConnected: 'metrics:broker_connected',
  /** Live sales made durable by every broker process, per bucket of their wait (field `le:<ms>` or `le:+Inf`), and `sum` (ms). */
  brokerSaleWait: 'metrics:broker_sale_wait',
} as const;
