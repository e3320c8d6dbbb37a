import { MigrationInterface, QueryRunner } from "typeorm";

export class FlatReads1795410483712 implements MigrationInterface {
    name = 'FlatReads1795410483712'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_account_apps_app_playtime"`);
        await queryRunner.query(`DROP INDEX "public"."ix_inventory_items_class_id"`);
        await queryRunner.query(`CREATE TABLE "app_owner_counts" ("app_id" integer NOT NULL, "owners" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_7cdd8e5e729acc17d7b92a7b65e" PRIMARY KEY ("app_id"))`);
        await queryRunner.query(`CREATE TABLE "item_class_owners" ("class_id" text NOT NULL, "owners" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_6e91eeb4f19eeae8e2ac327e061" PRIMARY KEY ("class_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_activity_events_type_feed" ON "activity_events"  ("event_type", "occurred_at", "id") `);
        await queryRunner.query(`CREATE INDEX "ix_account_apps_app_playtime" ON "account_apps"  ("app_id", "playtime", "account_id") `);
        await queryRunner.query(`CREATE INDEX "ix_account_updates_completed" ON "account_updates"  ("finished_at") WHERE status = 'completed'`);
        await queryRunner.query(`CREATE INDEX "ix_account_updates_account_completed" ON "account_updates"  ("account_id", "finished_at") WHERE status = 'completed'`);
        await queryRunner.query(`CREATE INDEX "ix_inventory_items_class_id" ON "inventory_items"  ("class_id", "amount", "account_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_inventory_items_class_id"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_updates_account_completed"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_updates_completed"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_apps_app_playtime"`);
        await queryRunner.query(`DROP INDEX "public"."ix_activity_events_type_feed"`);
        await queryRunner.query(`DROP TABLE "item_class_owners"`);
        await queryRunner.query(`DROP TABLE "app_owner_counts"`);
        await queryRunner.query(`CREATE INDEX "ix_inventory_items_class_id" ON "inventory_items" USING btree ("class_id", "amount") `);
        await queryRunner.query(`CREATE INDEX "ix_account_apps_app_playtime" ON "account_apps" USING btree ("app_id", "playtime") `);
    }

}
