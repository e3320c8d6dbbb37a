import { MigrationInterface, QueryRunner } from "typeorm";

export class AnalyticsDailyQuantiles1796554447271 implements MigrationInterface {
    name = 'AnalyticsDailyQuantiles1796554447271'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "analytics_daily_quantiles" ("metric" text NOT NULL, "scope_key" text NOT NULL, "day" date NOT NULL, "count" integer NOT NULL, "p50" integer NOT NULL, "p90" integer NOT NULL, "p99" integer NOT NULL, CONSTRAINT "PK_db574feb5c8d87eca4969a05131" PRIMARY KEY ("metric", "scope_key", "day"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "analytics_daily_quantiles"`);
    }

}
