import { MigrationInterface, QueryRunner } from "typeorm";

export class AccountWatches1796572458820 implements MigrationInterface {
    name = 'AccountWatches1796572458820'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "account_watches" ("watch_id" text NOT NULL, "account_id" integer NOT NULL, "kind" text NOT NULL, "target" text NOT NULL, "params" jsonb NOT NULL, "last_value" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "fired_at" TIMESTAMP WITH TIME ZONE, "fired" jsonb, CONSTRAINT "PK_15d8bd59b5837e82f5ae3f1fe79" PRIMARY KEY ("watch_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_account_watches_waiting" ON "account_watches"  ("target") WHERE fired_at IS NULL`);
        await queryRunner.query(`CREATE INDEX "ix_account_watches_owner" ON "account_watches"  ("account_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "ix_webhook_endpoints_account_id" ON "webhook_endpoints"  ("account_id") `);
        await queryRunner.query(`ALTER TABLE "account_watches" ADD CONSTRAINT "FK_602c5c03875aa46efee83ccdb0c" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "account_watches" DROP CONSTRAINT "FK_602c5c03875aa46efee83ccdb0c"`);
        await queryRunner.query(`DROP INDEX "public"."ix_webhook_endpoints_account_id"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_watches_owner"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_watches_waiting"`);
        await queryRunner.query(`DROP TABLE "account_watches"`);
    }

}
