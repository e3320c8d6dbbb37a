import { MigrationInterface, QueryRunner } from "typeorm";

export class BadgeTags1795392936559 implements MigrationInterface {
    name = 'BadgeTags1795392936559'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "tags" ("id" text NOT NULL, "kind" text NOT NULL, "name" text NOT NULL, "name_key" text NOT NULL, "hex" jsonb, "hsl" text NOT NULL DEFAULT '', "color_group" text NOT NULL DEFAULT '', "group_owner" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_e7dc17249a1148a1970748eda99" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_tags_kind_name" ON "tags"  ("kind", "name_key") `);
        await queryRunner.query(`CREATE TABLE "badge_tags" ("badge_id" integer NOT NULL, "tag_id" text NOT NULL, CONSTRAINT "PK_8e97f8b1b6da11b2e3575667525" PRIMARY KEY ("badge_id", "tag_id"))`);
        await queryRunner.query(`ALTER TABLE "badges" ADD "tags_version" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "badge_tags" ADD CONSTRAINT "FK_b5f84d603e63d5c24eb9ba9ee39" FOREIGN KEY ("badge_id") REFERENCES "badges"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "badge_tags" ADD CONSTRAINT "FK_8123a4e6acf45aa64f929ae6dbd" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "badge_tags" DROP CONSTRAINT "FK_8123a4e6acf45aa64f929ae6dbd"`);
        await queryRunner.query(`ALTER TABLE "badge_tags" DROP CONSTRAINT "FK_b5f84d603e63d5c24eb9ba9ee39"`);
        await queryRunner.query(`ALTER TABLE "badges" DROP COLUMN "tags_version"`);
        await queryRunner.query(`DROP TABLE "badge_tags"`);
        await queryRunner.query(`DROP INDEX "public"."ux_tags_kind_name"`);
        await queryRunner.query(`DROP TABLE "tags"`);
    }

}
