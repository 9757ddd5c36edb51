import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { DeviceModule } from '../device/device.module.js';
import { EventsModule } from '../events/events.module.js';
import { UserModule } from '../user/user.module.js';
import { LiveAuthService } from './live-auth.service.js';
import { LiveEventsService } from './live-events.service.js';
import { LiveServerService } from './live-server.service.js';
import { LiveWatchService } from './live-watch.service.js';
import { LiveRepository } from './live.repository.js';
import { SummaryCoalescer } from './summary-coalescer.js';

/** The Socket.IO server: live sales, summaries, machine status, config and float events. */
@Module({
  imports: [AuthModule, DeviceModule, EventsModule, UserModule],
  providers: [
    LiveAuthService,
    LiveWatchService,
    LiveServerService,
    LiveRepository,
    SummaryCoalescer,
    LiveEventsService,
  ],
})
export class LiveModule {}
