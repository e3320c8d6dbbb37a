import { MigrationInterface, QueryRunner } from "typeorm";

export class Webhooks1795430915963 implements MigrationInterface {
    name = 'Webhooks1795430915963'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "webhook_endpoints" ("webhook_id" text NOT NULL, "key_id" text NOT NULL, "account_id" integer NOT NULL, "url" text NOT NULL, "description" text NOT NULL DEFAULT '', "events" text array NOT NULL, "signing_secret" text NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "disabled_reason" text, "disabled_at" TIMESTAMP WITH TIME ZONE, "failing_since" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_72509888d0f6d05f5b2b884e034" PRIMARY KEY ("webhook_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_endpoints_key_id" ON "webhook_endpoints"  ("key_id") `);
        await queryRunner.query(`CREATE INDEX "ix_webhook_endpoints_enabled" ON "webhook_endpoints"  ("enabled") WHERE enabled`);
        await queryRunner.query(`CREATE TABLE "webhook_deliveries" ("delivery_id" BIGSERIAL NOT NULL, "webhook_id" text NOT NULL, "event_id" text NOT NULL, "event_type" text NOT NULL, "body" text NOT NULL, "status" text NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "last_error" text, "response_code" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_attempt_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_6c1db1ec505a69c927e3c4dcee4" PRIMARY KEY ("delivery_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_pending" ON "webhook_deliveries"  ("status") WHERE status = 'pending'`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_log" ON "webhook_deliveries"  ("webhook_id", "delivery_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_webhook_deliveries_event" ON "webhook_deliveries"  ("webhook_id", "event_id") `);
        await queryRunner.query(`CREATE TABLE "webhook_follows" ("account_id" integer NOT NULL, "webhook_id" text NOT NULL, CONSTRAINT "PK_cc580e1d41652f21175d7c966d6" PRIMARY KEY ("account_id", "webhook_id"))`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "FK_d04b246c70664313ac1a50942b1" FOREIGN KEY ("key_id") REFERENCES "api_keys"("key_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2" FOREIGN KEY ("webhook_id") REFERENCES "webhook_endpoints"("webhook_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "webhook_follows" ADD CONSTRAINT "FK_7174b7fa6b21cc73cc5435a4d8a" FOREIGN KEY ("webhook_id") REFERENCES "webhook_endpoints"("webhook_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "webhook_follows" DROP CONSTRAINT "FK_7174b7fa6b21cc73cc5435a4d8a"`);
        await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2"`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "FK_d04b246c70664313ac1a50942b1"`);
        await queryRunner.query(`DROP TABLE "webhook_follows"`);
        await queryRunner.query(`DROP INDEX "public"."ux_webhook_deliveries_event"`);
        await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_log"`);
        await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_pending"`);
        await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
        await queryRunner.query(`DROP INDEX "public"."ix_webhook_endpoints_enabled"`);
        await queryRunner.query(`DROP INDEX "public"."ix_webhook_endpoints_key_id"`);
        await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
    }

}
