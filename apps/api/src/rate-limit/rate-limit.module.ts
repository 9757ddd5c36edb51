import { Module } from '@nestjs/common';
import { FailureBudget } from './failure-budget.js';
import { RequestRateLimiter } from './request-rate-limiter.js';

/** The per-caller request budget and the failure budgets, shared by every API process (through Redis). */
@Module({ providers: [RequestRateLimiter, FailureBudget], exports: [RequestRateLimiter, FailureBudget] })
export class RateLimitModule {}
