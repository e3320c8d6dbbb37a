import { Module } from '@nestjs/common';
import { StatsEvents } from './stats-events';

/** The stats delta channel, shared by the producers (accounts) and the stream (stats). */
@Module({ providers: [StatsEvents], exports: [StatsEvents] })
export class StatsEventsModule {}
