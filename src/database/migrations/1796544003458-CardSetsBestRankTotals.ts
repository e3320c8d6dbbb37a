import { MigrationInterface, QueryRunner } from "typeorm";

export class CardSetsBestRankTotals1796544003458 implements MigrationInterface {
    name = 'CardSetsBestRankTotals1796544003458'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "app_card_counts" ADD "cards" integer`);
        await queryRunner.query(`ALTER TABLE "app_card_counts" ADD "card_names" text array`);
        await queryRunner.query(`ALTER TABLE "app_card_counts" ADD "cards_checked_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "account_best_ranks" ADD "totals" integer array NOT NULL DEFAULT '{}'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "account_best_ranks" DROP COLUMN "totals"`);
        await queryRunner.query(`ALTER TABLE "app_card_counts" DROP COLUMN "cards_checked_at"`);
        await queryRunner.query(`ALTER TABLE "app_card_counts" DROP COLUMN "card_names"`);
        await queryRunner.query(`ALTER TABLE "app_card_counts" DROP COLUMN "cards"`);
    }

}
