import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { dataSourceOptions } from './data-source-options';

/**
 * PostgreSQL through TypeORM. The database is created and migrated by `prepareDatabase` before Nest boots
 * (see bootstrap), never by `synchronize`.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => dataSourceOptions(config),
    }),
  ],
})
export class DatabaseModule {}
