import { MigrationInterface, QueryRunner } from "typeorm";

export class AccountInventoryPrivacy1796572134740 implements MigrationInterface {
    name = 'AccountInventoryPrivacy1796572134740'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "accounts" ADD "inventory_privacy" text NOT NULL DEFAULT 'public'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "accounts" DROP COLUMN "inventory_privacy"`);
    }

}
