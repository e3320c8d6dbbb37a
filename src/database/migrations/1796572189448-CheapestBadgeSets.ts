import { MigrationInterface, QueryRunner } from "typeorm";

export class CheapestBadgeSets1796572189448 implements MigrationInterface {
    name = 'CheapestBadgeSets1796572189448'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "ix_app_market_prices_full_sets" ON "app_market_prices"  ("badge_type", "set_price", "app_id") WHERE unlisted_cards = 0 AND cards > 0`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_app_market_prices_full_sets"`);
    }

}
