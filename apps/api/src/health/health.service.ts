import { Inject, Injectable } from '@nestjs/common';
import type { HealthResponse } from '@wv/contracts';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS } from '../redis/redis.provider.js';

/** Anything that can say whether the MQTT broker of this process is listening. */
export interface MqttHealth {
  mqttStatus(): 'up' | 'down' | 'disabled';
}
export const MQTT_HEALTH = Symbol('MQTT_HEALTH');

@Injectable()
export class HealthService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(MQTT_HEALTH) private readonly mqtt: MqttHealth,
  ) {}

  async check(): Promise<HealthResponse> {
    const [db, redis] = await Promise.all([
      withTimeout(this.dataSource.query('SELECT 1')),
      withTimeout(this.redis.ping()),
    ]);
    const mqtt = this.mqtt.mqttStatus();
    const ok = db && redis && mqtt !== 'down';
    return { status: ok ? 'ok' : 'degraded', db: db ? 'up' : 'down', redis: redis ? 'up' : 'down', mqtt };
  }
}

async function withTimeout(work: Promise<unknown>, ms = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
