import { MigrationInterface, QueryRunner } from "typeorm";

export class SiteAndDonations1795391697692 implements MigrationInterface {
    name = 'SiteAndDonations1795391697692'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "donations" ("id" SERIAL NOT NULL, "account_id" integer, "cents" integer NOT NULL, "donated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c01355d6f6f50fc6d1b4a946abf" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_donations_donated_at" ON "donations"  ("donated_at") `);
        await queryRunner.query(`CREATE TABLE "maintenance_events" ("uid" text NOT NULL, "title" text NOT NULL, "message" text NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "paths" jsonb NOT NULL DEFAULT '["*"]', "starts_at" TIMESTAMP WITH TIME ZONE, "ends_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "created_by" integer, CONSTRAINT "PK_b85549432169c7f94c6b107d9d9" PRIMARY KEY ("uid"))`);
        await queryRunner.query(`ALTER TABLE "donations" ADD CONSTRAINT "FK_885f8763ef51b32e70c66125305" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "donations" DROP CONSTRAINT "FK_885f8763ef51b32e70c66125305"`);
        await queryRunner.query(`DROP TABLE "maintenance_events"`);
        await queryRunner.query(`DROP INDEX "public"."ix_donations_donated_at"`);
        await queryRunner.query(`DROP TABLE "donations"`);
    }

}
