import { MigrationInterface, QueryRunner } from "typeorm";

export class DurableViewsAndReconciliation1796543668787 implements MigrationInterface {
    name = 'DurableViewsAndReconciliation1796543668787'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "profile_view_buckets" ("unit" character(1) NOT NULL, "starts_at" TIMESTAMP WITH TIME ZONE NOT NULL, "account_id" integer NOT NULL, "hits" integer NOT NULL, "visitors" bytea NOT NULL, CONSTRAINT "PK_3d977561ec02c97bb0ea1d642cf" PRIMARY KEY ("unit", "starts_at", "account_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_accounts_queued" ON "accounts"  ("account_id") WHERE last_queue_status IN ('pending', 'in_progress')`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_accounts_queued"`);
        await queryRunner.query(`DROP TABLE "profile_view_buckets"`);
    }

}
