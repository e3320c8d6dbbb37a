import { MigrationInterface, QueryRunner } from "typeorm";

export class DerivedState1795408235097 implements MigrationInterface {
    name = 'DerivedState1795408235097'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "app_card_classes" ("app_id" integer NOT NULL, "class_id" text NOT NULL, "owners" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_4d3d22fd8543989d6a1474b54c0" PRIMARY KEY ("app_id", "class_id"))`);
        await queryRunner.query(`CREATE TABLE "badge_holder_stats" ("badge_id" integer NOT NULL, "holders" integer NOT NULL DEFAULT '0', "highest_level" integer NOT NULL DEFAULT '0', "first_completion" TIMESTAMP WITH TIME ZONE, "last_completion" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b563e1edbab41713b86bf72cf04" PRIMARY KEY ("badge_id"))`);
        await queryRunner.query(`CREATE TABLE "platform_totals" ("stripe" smallint NOT NULL, "accounts_added" bigint NOT NULL DEFAULT '0', "accounts_updated" bigint NOT NULL DEFAULT '0', "app_playtime" bigint NOT NULL DEFAULT '0', "apps" bigint NOT NULL DEFAULT '0', "awards_given" bigint NOT NULL DEFAULT '0', "awards_received" bigint NOT NULL DEFAULT '0', "badges" bigint NOT NULL DEFAULT '0', "bans" bigint NOT NULL DEFAULT '0', "foil_badges" bigint NOT NULL DEFAULT '0', "friends" bigint NOT NULL DEFAULT '0', "game_bans" bigint NOT NULL DEFAULT '0', "level" bigint NOT NULL DEFAULT '0', "normal_badges" bigint NOT NULL DEFAULT '0', "playtime" bigint NOT NULL DEFAULT '0', "points_given" bigint NOT NULL DEFAULT '0', "points_received" bigint NOT NULL DEFAULT '0', "steam_sets_score" bigint NOT NULL DEFAULT '0', "total_accounts" bigint NOT NULL DEFAULT '0', "vac_bans" bigint NOT NULL DEFAULT '0', "xp" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_5e11ac84eded502828a3d5127cf" PRIMARY KEY ("stripe"))`);
        await queryRunner.query(`CREATE INDEX "ix_account_badges_badge_level" ON "account_badges"  ("badge_id", "level") `);
        await queryRunner.query(`ALTER TABLE "badge_holder_stats" ADD CONSTRAINT "FK_b563e1edbab41713b86bf72cf04" FOREIGN KEY ("badge_id") REFERENCES "badges"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "badge_holder_stats" DROP CONSTRAINT "FK_b563e1edbab41713b86bf72cf04"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_badges_badge_level"`);
        await queryRunner.query(`DROP TABLE "platform_totals"`);
        await queryRunner.query(`DROP TABLE "badge_holder_stats"`);
        await queryRunner.query(`DROP TABLE "app_card_classes"`);
    }

}
