import { MigrationInterface, QueryRunner } from "typeorm";

export class CardMarketPrices1796571830979 implements MigrationInterface {
    name = 'CardMarketPrices1796571830979'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "card_market_prices" ("app_id" integer NOT NULL, "badge_type" text NOT NULL, "market_hash_name" text NOT NULL, "lowest_price" integer, "buy_price" integer, "volume" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_101cba4b3370ee9371b3bdbc3f0" PRIMARY KEY ("app_id", "badge_type", "market_hash_name"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "card_market_prices"`);
    }

}
