import { DataSource } from 'typeorm';
import { processConfig } from './src/config/config.module';
import { dataSourceOptions } from './src/database/data-source-options';

/** The data source of the TypeORM CLI (`npm run migration:generate`, `migration:run`); the app builds the same one. */
export default new DataSource(dataSourceOptions(processConfig()));
