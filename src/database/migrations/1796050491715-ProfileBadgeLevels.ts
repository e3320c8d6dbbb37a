import { MigrationInterface, QueryRunner } from "typeorm";

export class ProfileBadgeLevels1796050491715 implements MigrationInterface {
    name = 'ProfileBadgeLevels1796050491715'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "ix_account_badges_account_levels" ON "account_badges"  ("account_id", "badge_id", "level") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_account_badges_account_levels"`);
    }

}
