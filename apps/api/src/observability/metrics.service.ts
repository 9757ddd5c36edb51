import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { SALE_WAIT_BOUNDS_MS } from '@wv/broker';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { SHARED_COUNTERS } from '../counters/shared-counters.js';
import { REDIS } from '../redis/redis.provider.js';
import { SaleIngestQueue } from '../sale/sale-ingest.queue.js';

/** Prometheus metrics for GET /api/metrics. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;

  constructor(@Inject(REDIS) redis: Redis, @Optional() queue?: SaleIngestQueue) {
    this.registry.setDefaultLabels({ app: 'water-vending' });
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'wv_http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    const shared = (name: string, help: string, key: string) =>
      new Counter({
        name,
        help,
        registers: [this.registry],
        async collect() {
          this.reset();
          this.inc(Number((await redis.get(key)) ?? 0));
        },
      });
    shared('wv_sales_ingested_total', 'Sales committed to PostgreSQL', SHARED_COUNTERS.salesIngested);
    shared(
      'wv_sales_duplicates_total',
      'Deliveries of sales that were already stored',
      SHARED_COUNTERS.salesDuplicates,
    );
    shared('wv_dead_letters_total', 'Invalid device payloads kept as dead letters', SHARED_COUNTERS.deadLetters);
    new Counter({
      name: 'wv_broker_refusals_total',
      help: 'MQTT connections, publishes and subscriptions the broker refused, by reason',
      labelNames: ['reason'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [reason, n] of Object.entries(await redis.hgetall(SHARED_COUNTERS.brokerRefusals)))
          this.inc({ reason }, Number(n));
      },
    });
    new Gauge({
      name: 'wv_machines_connected',
      help: 'Machines connected to the broker processes',
      registers: [this.registry],
      async collect() {
        const perProcess = await redis.hvals(SHARED_COUNTERS.brokerConnected);
        this.set(perProcess.reduce((sum, v) => sum + Number(JSON.parse(v).connected ?? 0), 0));
      },
    });
    new Gauge({
      name: 'wv_sales_queue_depth',
      help: 'Sales batches waiting in the ingest queue',
      registers: [this.registry],
      async collect() {
        if (queue) this.set(await queue.depth());
      },
    });
    this.registry.registerMetric(sharedSaleWaitHistogram(redis));
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}

const SALE_WAIT = 'wv_broker_sale_durable_seconds';

/**
 * How long live sales waited in the broker processes before they were durable (their PUBACK follows at once), as a
 * Prometheus histogram of every broker process together: each adds its counts to Redis (BrokerService), so prom-client's
 * own Histogram, which only counts observations made in this process, cannot serve it. The registry prints what
 * `get()` returns, in the exposition format of a histogram (`_bucket` with cumulative `le`, `_sum`, `_count`).
 */
function sharedSaleWaitHistogram(redis: Redis): Metric {
  const help = 'Time a live sale waited in the broker until it was durable in Redis; its PUBACK is written right after';
  const metric = {
    name: SALE_WAIT,
    help,
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      const fields = await redis.hgetall(SHARED_COUNTERS.brokerSaleWait);
      let cumulative = 0;
      const buckets = [...SALE_WAIT_BOUNDS_MS.map(String), '+Inf'].map((bound) => {
        cumulative += Number(fields[`le:${bound}`] ?? 0);
        const le = bound === '+Inf' ? bound : String(Number(bound) / 1000);
        return { metricName: `${SALE_WAIT}_bucket`, labels: { le }, value: cumulative };
      });
      return {
        name: SALE_WAIT,
        help,
        type: 'histogram',
        aggregator: 'sum',
        values: [
          ...buckets,
          { metricName: `${SALE_WAIT}_sum`, labels: {}, value: Number(fields.sum ?? 0) / 1000 },
          { metricName: `${SALE_WAIT}_count`, labels: {}, value: cumulative },
        ],
      };
    },
    reset() {},
  };
  return metric as unknown as Metric;
}
