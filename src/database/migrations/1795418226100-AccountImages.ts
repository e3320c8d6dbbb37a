import { MigrationInterface, QueryRunner } from "typeorm";

export class AccountImages1795418226100 implements MigrationInterface {
    name = 'AccountImages1795418226100'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "account_images" ("image_id" text NOT NULL, "account_id" integer NOT NULL, "image_type" text NOT NULL, "file_name" text NOT NULL, "format" text NOT NULL, "width" integer NOT NULL, "height" integer NOT NULL, "frames" integer NOT NULL, "byte_size" integer NOT NULL, "active" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_33d689aab741d897966cb0f1e9c" PRIMARY KEY ("image_id"))`);
        await queryRunner.query(`CREATE INDEX "ix_account_images_file_name" ON "account_images"  ("file_name") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_account_images_active" ON "account_images"  ("account_id", "image_type") WHERE active`);
        await queryRunner.query(`CREATE INDEX "ix_account_images_account" ON "account_images"  ("account_id", "image_type", "created_at") `);
        await queryRunner.query(`ALTER TABLE "account_images" ADD CONSTRAINT "FK_29b96fc248ab2373c6c9a92cf7d" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "account_images" DROP CONSTRAINT "FK_29b96fc248ab2373c6c9a92cf7d"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_images_account"`);
        await queryRunner.query(`DROP INDEX "public"."ux_account_images_active"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_images_file_name"`);
        await queryRunner.query(`DROP TABLE "account_images"`);
    }

}
