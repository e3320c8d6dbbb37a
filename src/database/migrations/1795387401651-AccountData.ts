import { MigrationInterface, QueryRunner } from "typeorm";

export class AccountData1795387401651 implements MigrationInterface {
    name = 'AccountData1795387401651'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "account_apps" ("account_id" integer NOT NULL, "app_id" integer NOT NULL, "playtime" integer NOT NULL DEFAULT '0', "playtime2_weeks" integer NOT NULL DEFAULT '0', "last_played" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_659493d1c01066611cd77670464" PRIMARY KEY ("account_id", "app_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_account_apps_app_playtime" ON "account_apps"  ("app_id", "playtime") `);
        await queryRunner.query(`CREATE TABLE "badges" ("id" SERIAL NOT NULL, "badge_key" text NOT NULL, "app_id" integer, "platform_badge_id" integer NOT NULL, "is_foil" boolean NOT NULL DEFAULT false, "name" text NOT NULL DEFAULT '', "image" text NOT NULL DEFAULT '', "base_level" integer NOT NULL DEFAULT '1', "base_xp" integer NOT NULL DEFAULT '100', "is_event" boolean NOT NULL DEFAULT false, "is_sale" boolean NOT NULL DEFAULT false, "scarcity" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_8a651318b8de577e8e217676466" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_badges_badge_key" ON "badges"  ("badge_key") `);
        await queryRunner.query(`CREATE INDEX "ix_badges_app_id" ON "badges"  ("app_id") `);
        await queryRunner.query(`CREATE TABLE "account_badges" ("account_id" integer NOT NULL, "badge_id" integer NOT NULL, "level" integer NOT NULL, "xp" integer NOT NULL, "completion_time" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_53a14ce9fba748ddbe68bef698d" PRIMARY KEY ("account_id", "badge_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_account_badges_badge_id" ON "account_badges"  ("badge_id", "completion_time") `);
        await queryRunner.query(`CREATE TABLE "account_friends" ("account_id" integer NOT NULL, "friend_account_id" integer NOT NULL, "friend_since" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_9ecd7244b2b2baa0f2289301746" PRIMARY KEY ("account_id", "friend_account_id"))`);
        await queryRunner.query(`CREATE TABLE "account_groups" ("account_id" integer NOT NULL, "group_id" text NOT NULL, CONSTRAINT "PK_0a24418e601453d888c1330e57c" PRIMARY KEY ("account_id", "group_id"))`);
        await queryRunner.query(`CREATE TABLE "account_updates" ("run_id" uuid NOT NULL, "account_id" integer NOT NULL, "status" text NOT NULL, "queued_at" TIMESTAMP WITH TIME ZONE NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, "attempts" integer NOT NULL DEFAULT '0', "steps" jsonb NOT NULL DEFAULT '[]', "error" jsonb, "before" jsonb, "after" jsonb, CONSTRAINT "PK_98f711995f0ddf07855ef5c7bf4" PRIMARY KEY ("run_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_account_updates_account_queued" ON "account_updates"  ("account_id", "queued_at") `);
        await queryRunner.query(`CREATE TABLE "apps" ("app_id" integer NOT NULL, "name" text NOT NULL DEFAULT '', "icon" text NOT NULL DEFAULT '', CONSTRAINT "PK_8ffdeb9b34bd94562e679dbc692" PRIMARY KEY ("app_id"))`);
        await queryRunner.query(`CREATE TABLE "inventory_items" ("account_id" integer NOT NULL, "class_id" text NOT NULL, "app_id" integer, "kind" text NOT NULL, "name" text NOT NULL, "market_hash_name" text NOT NULL, "amount" integer NOT NULL, "asset_id" text NOT NULL, CONSTRAINT "PK_096afe84018a8932744c599143f" PRIMARY KEY ("account_id", "class_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_inventory_items_app_kind" ON "inventory_items"  ("app_id", "kind", "class_id") `);
        await queryRunner.query(`CREATE INDEX "ix_inventory_items_class_id" ON "inventory_items"  ("class_id", "amount") `);
        await queryRunner.query(`ALTER TABLE "account_apps" ADD CONSTRAINT "FK_ca91a101c027f0e4330ac428fec" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "account_badges" ADD CONSTRAINT "FK_22be48fbba0526bff3937b991ea" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "account_badges" ADD CONSTRAINT "FK_d4b0d0eaa627b068a2bab43fead" FOREIGN KEY ("badge_id") REFERENCES "badges"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "account_friends" ADD CONSTRAINT "FK_cb317fa32fde3ebb0ca651a61a0" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "account_groups" ADD CONSTRAINT "FK_dd675e0af0dd5ad7cf5054b9fc9" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "account_updates" ADD CONSTRAINT "FK_cc4ff227477107b82792227ea61" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "inventory_items" ADD CONSTRAINT "FK_9c0c8875c1b3e463916e896a79c" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "inventory_items" DROP CONSTRAINT "FK_9c0c8875c1b3e463916e896a79c"`);
        await queryRunner.query(`ALTER TABLE "account_updates" DROP CONSTRAINT "FK_cc4ff227477107b82792227ea61"`);
        await queryRunner.query(`ALTER TABLE "account_groups" DROP CONSTRAINT "FK_dd675e0af0dd5ad7cf5054b9fc9"`);
        await queryRunner.query(`ALTER TABLE "account_friends" DROP CONSTRAINT "FK_cb317fa32fde3ebb0ca651a61a0"`);
        await queryRunner.query(`ALTER TABLE "account_badges" DROP CONSTRAINT "FK_d4b0d0eaa627b068a2bab43fead"`);
        await queryRunner.query(`ALTER TABLE "account_badges" DROP CONSTRAINT "FK_22be48fbba0526bff3937b991ea"`);
        await queryRunner.query(`ALTER TABLE "account_apps" DROP CONSTRAINT "FK_ca91a101c027f0e4330ac428fec"`);
        await queryRunner.query(`DROP INDEX "public"."ix_inventory_items_class_id"`);
        await queryRunner.query(`DROP INDEX "public"."ix_inventory_items_app_kind"`);
        await queryRunner.query(`DROP TABLE "inventory_items"`);
        await queryRunner.query(`DROP TABLE "apps"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_updates_account_queued"`);
        await queryRunner.query(`DROP TABLE "account_updates"`);
        await queryRunner.query(`DROP TABLE "account_groups"`);
        await queryRunner.query(`DROP TABLE "account_friends"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_badges_badge_id"`);
        await queryRunner.query(`DROP TABLE "account_badges"`);
        await queryRunner.query(`DROP INDEX "public"."ix_badges_app_id"`);
        await queryRunner.query(`DROP INDEX "public"."ux_badges_badge_key"`);
        await queryRunner.query(`DROP TABLE "badges"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_apps_app_playtime"`);
        await queryRunner.query(`DROP TABLE "account_apps"`);
    }

}
