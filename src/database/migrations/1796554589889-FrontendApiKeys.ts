import { MigrationInterface, QueryRunner } from "typeorm";

export class FrontendApiKeys1796554589889 implements MigrationInterface {
    name = 'FrontendApiKeys1796554589889'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "api_keys" ADD "frontend" boolean NOT NULL DEFAULT false`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "frontend"`);
    }

}
