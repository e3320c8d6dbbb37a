import { MigrationInterface, QueryRunner } from "typeorm";

export class SettingsLocationAndVanity1796541227529 implements MigrationInterface {
    name = 'SettingsLocationAndVanity1796541227529'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "account_settings" ADD "platform_location" jsonb`);
        await queryRunner.query(`ALTER TABLE "accounts" ADD CONSTRAINT "ck_accounts_site_vanity_lower" CHECK ("site_vanity" = lower("site_vanity"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "accounts" DROP CONSTRAINT "ck_accounts_site_vanity_lower"`);
        await queryRunner.query(`ALTER TABLE "account_settings" DROP COLUMN "platform_location"`);
    }

}
