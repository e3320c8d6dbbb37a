import { MigrationInterface, QueryRunner } from "typeorm";

export class Groups1795419779069 implements MigrationInterface {
    name = 'Groups1795419779069'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "groups" ("gid" bigint NOT NULL, "name" text NOT NULL DEFAULT '', "vanity" text NOT NULL DEFAULT '', "tag" text NOT NULL DEFAULT '', "avatar" text NOT NULL DEFAULT '', "privacy" text NOT NULL DEFAULT 'public', "member_count" integer NOT NULL DEFAULT '0', "owner_steam_id" text, "owner_account_id" integer, "first_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "refreshed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_07a1d6e456b1a2da992819ea859" PRIMARY KEY ("gid"))`);
        await queryRunner.query(`CREATE INDEX "ix_groups_owner" ON "groups"  ("owner_account_id") WHERE owner_account_id IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_groups_owner"`);
        await queryRunner.query(`DROP TABLE "groups"`);
    }

}
