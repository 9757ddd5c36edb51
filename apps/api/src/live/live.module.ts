import { Module } from '@nestjs/common';
import { LiveAuthService } from './live-auth.service.js';
import { LiveEventsService } from './live-events.service.js';
import { LiveServerService } from './live-server.service.js';
import { LiveRepository } from './live.repository.js';
import { SummaryCoalescer } from './summary-coalescer.js';

/** The Socket.IO server: live sales, summaries, machine status, config and float events. */
@Module({ providers: [LiveAuthService, LiveServerService, LiveRepository, SummaryCoalescer, LiveEventsService] })
export class LiveModule {}
