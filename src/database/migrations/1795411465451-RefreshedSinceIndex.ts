import { MigrationInterface, QueryRunner } from "typeorm";

export class RefreshedSinceIndex1795411465451 implements MigrationInterface {
    name = 'RefreshedSinceIndex1795411465451'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "ix_accounts_updated_at" ON "accounts"  ("updated_at") WHERE updated_at IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_accounts_updated_at"`);
    }

}
