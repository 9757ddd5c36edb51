import { Module } from '@nestjs/common';
import { DeviceOutbox } from './device-outbox.js';

/** Server → machine publishes, from any process role to the processes that run the broker. */
@Module({ providers: [DeviceOutbox], exports: [DeviceOutbox] })
export class DeviceOutboxModule {}
