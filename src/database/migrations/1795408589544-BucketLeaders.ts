import { MigrationInterface, QueryRunner } from "typeorm";

export class BucketLeaders1795408589544 implements MigrationInterface {
    name = 'BucketLeaders1795408589544'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "board_value_leaders" ("board" text NOT NULL, "value" integer NOT NULL, "account_id" integer NOT NULL, "score" integer NOT NULL, CONSTRAINT "PK_20fd5e9898599410c31e44304d8" PRIMARY KEY ("board", "value"))`);
        await queryRunner.query(`CREATE INDEX "ix_accounts_apps" ON "accounts"  ("apps", "account_id") WHERE updated_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "ix_accounts_level_xp" ON "accounts"  ("level", "xp", "account_id") WHERE updated_at IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_accounts_level_xp"`);
        await queryRunner.query(`DROP INDEX "public"."ix_accounts_apps"`);
        await queryRunner.query(`DROP TABLE "board_value_leaders"`);
    }

}
