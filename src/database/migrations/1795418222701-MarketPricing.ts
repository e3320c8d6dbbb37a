import { MigrationInterface, QueryRunner } from "typeorm";

export class MarketPricing1795418222701 implements MigrationInterface {
    name = 'MarketPricing1795418222701'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "app_market_prices" ("app_id" integer NOT NULL, "badge_type" text NOT NULL, "cards" integer NOT NULL, "unlisted_cards" integer NOT NULL, "unmarketable_cards" integer NOT NULL, "average_volume" integer NOT NULL, "card_average_price" integer NOT NULL, "set_price" integer NOT NULL, "buy_order_average_price" integer NOT NULL, "set_buy_order_price" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_d9721c288d6e052373680250bfb" PRIMARY KEY ("app_id", "badge_type"))`);
        await queryRunner.query(`CREATE TABLE "app_pricing" ("app_id" integer NOT NULL, "checked_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_cc0bcee2c528bd80c142aabab18" PRIMARY KEY ("app_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_app_pricing_checked_at" ON "app_pricing"  ("checked_at", "app_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_app_pricing_checked_at"`);
        await queryRunner.query(`DROP TABLE "app_pricing"`);
        await queryRunner.query(`DROP TABLE "app_market_prices"`);
    }

}
