import { MigrationInterface, QueryRunner } from "typeorm";

export class ActivityEvents1795391274187 implements MigrationInterface {
    name = 'ActivityEvents1795391274187'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "activity_events" ("id" BIGSERIAL NOT NULL, "account_id" integer NOT NULL, "event_type" text NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "data" jsonb NOT NULL, CONSTRAINT "PK_f8e8d9dbf64f93f58ae52b4a9e4" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_activity_events_account_feed" ON "activity_events"  ("account_id", "occurred_at", "id") `);
        await queryRunner.query(`CREATE INDEX "ix_activity_events_feed" ON "activity_events"  ("occurred_at", "id") `);
        await queryRunner.query(`ALTER TABLE "activity_events" ADD CONSTRAINT "FK_31ed79fde30eac99ac40c324039" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "activity_events" DROP CONSTRAINT "FK_31ed79fde30eac99ac40c324039"`);
        await queryRunner.query(`DROP INDEX "public"."ix_activity_events_feed"`);
        await queryRunner.query(`DROP INDEX "public"."ix_activity_events_account_feed"`);
        await queryRunner.query(`DROP TABLE "activity_events"`);
    }

}
