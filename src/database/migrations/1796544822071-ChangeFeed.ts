import { MigrationInterface, QueryRunner } from "typeorm";

export class ChangeFeed1796544822071 implements MigrationInterface {
    name = 'ChangeFeed1796544822071'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "change_feed" ("id" BIGSERIAL NOT NULL, "xid" bigint NOT NULL DEFAULT txid_current(), "kind" text NOT NULL, "account_ids" integer array NOT NULL DEFAULT '{}', "payload" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_57344f8330a63fc4867f148b707" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_change_feed_pruned" ON "change_feed"  ("xid", "id") WHERE kind = 'pruned'::text`);
        await queryRunner.query(`CREATE INDEX "ix_change_feed_order" ON "change_feed"  ("xid", "id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_change_feed_order"`);
        await queryRunner.query(`DROP INDEX "public"."ix_change_feed_pruned"`);
        await queryRunner.query(`DROP TABLE "change_feed"`);
    }

}
