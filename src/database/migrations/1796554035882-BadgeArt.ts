import { MigrationInterface, QueryRunner } from "typeorm";

export class BadgeArt1796554035882 implements MigrationInterface {
    name = 'BadgeArt1796554035882'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "badges" ADD "art_checked_at" TIMESTAMP WITH TIME ZONE`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "badges" DROP COLUMN "art_checked_at"`);
    }

}
