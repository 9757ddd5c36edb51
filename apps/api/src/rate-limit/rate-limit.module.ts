import { Module } from '@nestjs/common';
import { RequestRateLimiter } from './request-rate-limiter.js';

/** The per-caller request budget shared by every API process (through Redis). */
@Module({ providers: [RequestRateLimiter], exports: [RequestRateLimiter] })
export class RateLimitModule {}
