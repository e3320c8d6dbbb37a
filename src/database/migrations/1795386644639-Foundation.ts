import { MigrationInterface, QueryRunner } from "typeorm";

export class Foundation1795386644639 implements MigrationInterface {
    name = 'Foundation1795386644639'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "accounts" ("account_id" integer NOT NULL, "name" text NOT NULL DEFAULT '', "avatar" text NOT NULL DEFAULT '', "animated_avatar" text NOT NULL DEFAULT '', "avatar_frame" text NOT NULL DEFAULT '', "background" text NOT NULL DEFAULT '', "mini_background" text NOT NULL DEFAULT '', "theme" text NOT NULL DEFAULT '', "privacy" text NOT NULL DEFAULT 'public', "app_privacy" text NOT NULL DEFAULT 'public', "friend_privacy" text NOT NULL DEFAULT 'public', "platform_vanity" text, "site_vanity" text, "apps" integer NOT NULL DEFAULT '0', "badges" integer NOT NULL DEFAULT '0', "foil_badges" integer NOT NULL DEFAULT '0', "normal_badges" integer NOT NULL DEFAULT '0', "special_badges" integer NOT NULL DEFAULT '0', "friends" integer NOT NULL DEFAULT '0', "level" integer NOT NULL DEFAULT '0', "xp" integer NOT NULL DEFAULT '0', "playtime" integer NOT NULL DEFAULT '0', "awards_given" integer NOT NULL DEFAULT '0', "awards_received" integer NOT NULL DEFAULT '0', "points_given" integer NOT NULL DEFAULT '0', "points_received" integer NOT NULL DEFAULT '0', "donated" integer NOT NULL DEFAULT '0', "bans" integer NOT NULL DEFAULT '0', "game_bans" integer NOT NULL DEFAULT '0', "vac_bans" integer NOT NULL DEFAULT '0', "site_score" integer NOT NULL DEFAULT '0', "community_ban" boolean NOT NULL DEFAULT false, "economy_ban" text NOT NULL DEFAULT 'none', "last_ban_date" TIMESTAMP WITH TIME ZONE, "platform_created_at" TIMESTAMP WITH TIME ZONE, "country_code" text, "country_name" text, "state_code" text, "state_name" text, "city_id" integer, "city_name" text, "region" text, "last_queue_status" text NOT NULL DEFAULT 'undefined', "updated_at" TIMESTAMP WITH TIME ZONE, "next_allowed_time" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "update_count" integer NOT NULL DEFAULT '0', "added_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_abcd260aa34b3ad2c0ff663dc20" PRIMARY KEY ("account_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_accounts_platform_vanity" ON "accounts"  ("platform_vanity") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_accounts_site_vanity" ON "accounts"  ("site_vanity") `);
        await queryRunner.query(`CREATE TABLE "account_roles" ("account_id" integer NOT NULL, "role" text NOT NULL, "rating" integer NOT NULL DEFAULT '0', "extras" jsonb, CONSTRAINT "PK_0f65631e8f59fdb69be275778d4" PRIMARY KEY ("account_id", "role"))`);
        await queryRunner.query(`CREATE TABLE "account_settings" ("account_id" integer NOT NULL, "email" text NOT NULL, "email_verified_at" TIMESTAMP WITH TIME ZONE, "hidden" boolean NOT NULL DEFAULT false, "language" text NOT NULL DEFAULT 'en', "subscribed" boolean NOT NULL DEFAULT false, "chosen_role" text, "chosen_tier" text, "vanity_clicks" integer NOT NULL DEFAULT '0', "country_override_code" text, "country_override_name" text, CONSTRAINT "PK_37b8bbe76d3f93380d01fc1bfff" PRIMARY KEY ("account_id"))`);
        await queryRunner.query(`CREATE TABLE "api_key_usage" ("key_id" text NOT NULL, "hour" TIMESTAMP WITH TIME ZONE NOT NULL, "outcome" text NOT NULL, "count" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_43592c54cd0f56284d06c5e1b00" PRIMARY KEY ("key_id", "hour", "outcome"))`);
        await queryRunner.query(`CREATE TABLE "api_keys" ("key_id" text NOT NULL, "account_id" integer NOT NULL, "name" text NOT NULL, "description" text NOT NULL DEFAULT '', "environment" text NOT NULL DEFAULT 'production', "secret_hash" text NOT NULL, "last_four" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_587c54d5d82b3dfbfb59a81cb42" PRIMARY KEY ("key_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_api_keys_account_id" ON "api_keys"  ("account_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_api_keys_secret_hash" ON "api_keys"  ("secret_hash") `);
        await queryRunner.query(`CREATE TABLE "user_sessions" ("session_id" text NOT NULL, "account_id" integer NOT NULL, "token_hash" text NOT NULL, "refresh_hash" text NOT NULL, "ip" text NOT NULL DEFAULT '', "user_agent" text NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "refresh_expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_seen" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b6c41d19165af4c69eba9ecda46" PRIMARY KEY ("session_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_user_sessions_account_id" ON "user_sessions"  ("account_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_user_sessions_token_hash" ON "user_sessions"  ("token_hash") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_user_sessions_refresh_hash" ON "user_sessions"  ("refresh_hash") `);
        await queryRunner.query(`ALTER TABLE "account_roles" ADD CONSTRAINT "FK_0e94d53a5ed46deaae79475e427" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "account_settings" ADD CONSTRAINT "FK_37b8bbe76d3f93380d01fc1bfff" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "FK_decaf331589778e33441b2a8d9e" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "user_sessions" ADD CONSTRAINT "FK_30200f5bd2ab5c806dba1619857" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user_sessions" DROP CONSTRAINT "FK_30200f5bd2ab5c806dba1619857"`);
        await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_decaf331589778e33441b2a8d9e"`);
        await queryRunner.query(`ALTER TABLE "account_settings" DROP CONSTRAINT "FK_37b8bbe76d3f93380d01fc1bfff"`);
        await queryRunner.query(`ALTER TABLE "account_roles" DROP CONSTRAINT "FK_0e94d53a5ed46deaae79475e427"`);
        await queryRunner.query(`DROP INDEX "public"."ux_user_sessions_refresh_hash"`);
        await queryRunner.query(`DROP INDEX "public"."ux_user_sessions_token_hash"`);
        await queryRunner.query(`DROP INDEX "public"."ix_user_sessions_account_id"`);
        await queryRunner.query(`DROP TABLE "user_sessions"`);
        await queryRunner.query(`DROP INDEX "public"."ux_api_keys_secret_hash"`);
        await queryRunner.query(`DROP INDEX "public"."ix_api_keys_account_id"`);
        await queryRunner.query(`DROP TABLE "api_keys"`);
        await queryRunner.query(`DROP TABLE "api_key_usage"`);
        await queryRunner.query(`DROP TABLE "account_settings"`);
        await queryRunner.query(`DROP TABLE "account_roles"`);
        await queryRunner.query(`DROP INDEX "public"."ux_accounts_site_vanity"`);
        await queryRunner.query(`DROP INDEX "public"."ix_accounts_platform_vanity"`);
        await queryRunner.query(`DROP TABLE "accounts"`);
    }

}
