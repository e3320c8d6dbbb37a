import { MigrationInterface, QueryRunner } from "typeorm";

export class EmailAndPreferences1796541436648 implements MigrationInterface {
    name = 'EmailAndPreferences1796541436648'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "email_verification_codes" ("account_id" integer NOT NULL, "email" text NOT NULL, "code_hash" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "failed_attempts" smallint NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7efda16cf389aed2b1db9006e2d" PRIMARY KEY ("account_id"))`);
        await queryRunner.query(`CREATE TABLE "account_kv_entries" ("account_id" integer NOT NULL, "namespace" text NOT NULL, "key" text NOT NULL, "value" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_22acdc697e0554281f6ec7f632e" PRIMARY KEY ("account_id", "namespace", "key"))`);
        await queryRunner.query(`CREATE TABLE "account_badge_bookmarks" ("account_id" integer NOT NULL, "badge_id" integer NOT NULL, "bookmarked_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d037c4148759f7579e87b235303" PRIMARY KEY ("account_id", "badge_id"))`);
        await queryRunner.query(`ALTER TABLE "email_verification_codes" ADD CONSTRAINT "FK_7efda16cf389aed2b1db9006e2d" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "account_kv_entries" ADD CONSTRAINT "FK_06925fd416cb9e7f240be87a4c7" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "account_badge_bookmarks" ADD CONSTRAINT "FK_ca813a24d38d152390c132ef8e4" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "account_badge_bookmarks" ADD CONSTRAINT "FK_f85133f0c6f73b0e4e4634c8773" FOREIGN KEY ("badge_id") REFERENCES "badges"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "account_badge_bookmarks" DROP CONSTRAINT "FK_f85133f0c6f73b0e4e4634c8773"`);
        await queryRunner.query(`ALTER TABLE "account_badge_bookmarks" DROP CONSTRAINT "FK_ca813a24d38d152390c132ef8e4"`);
        await queryRunner.query(`ALTER TABLE "account_kv_entries" DROP CONSTRAINT "FK_06925fd416cb9e7f240be87a4c7"`);
        await queryRunner.query(`ALTER TABLE "email_verification_codes" DROP CONSTRAINT "FK_7efda16cf389aed2b1db9006e2d"`);
        await queryRunner.query(`DROP TABLE "account_badge_bookmarks"`);
        await queryRunner.query(`DROP TABLE "account_kv_entries"`);
        await queryRunner.query(`DROP TABLE "email_verification_codes"`);
    }

}
