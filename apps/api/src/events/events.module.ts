import { Module } from '@nestjs/common';
import { DomainEvents } from './domain-events.js';

/** The in-process domain event bus: one instance per process, shared by every module that imports this one. */
@Module({ providers: [DomainEvents], exports: [DomainEvents] })
export class EventsModule {}
