import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
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
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
