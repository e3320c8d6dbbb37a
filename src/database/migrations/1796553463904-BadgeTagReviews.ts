import { MigrationInterface, QueryRunner } from "typeorm";

export class BadgeTagReviews1796553463904 implements MigrationInterface {
    name = 'BadgeTagReviews1796553463904'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "badge_tag_reviews" ("badge_id" integer NOT NULL, "claimed_by" integer, "claimed_until" TIMESTAMP WITH TIME ZONE, "completed_at" TIMESTAMP WITH TIME ZONE, "reviewer_account_id" integer, "skipped" boolean NOT NULL DEFAULT false, "skip_reason" text, "review_version" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_e1222e86dd67201a5eba040dda1" PRIMARY KEY ("badge_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_badge_tag_reviews_open" ON "badge_tag_reviews"  ("badge_id") WHERE completed_at IS NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_badge_tag_reviews_open"`);
        await queryRunner.query(`DROP TABLE "badge_tag_reviews"`);
    }

}
