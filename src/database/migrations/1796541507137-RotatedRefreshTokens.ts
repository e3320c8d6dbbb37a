import { MigrationInterface, QueryRunner } from "typeorm";

export class RotatedRefreshTokens1796541507137 implements MigrationInterface {
    name = 'RotatedRefreshTokens1796541507137'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "rotated_refresh_tokens" ("refresh_hash" text NOT NULL, "session_id" text NOT NULL, "rotated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_db7eaa46569c8afa931506fe0ad" PRIMARY KEY ("refresh_hash"))`);
        await queryRunner.query(`CREATE INDEX "ix_rotated_refresh_tokens_session_id" ON "rotated_refresh_tokens"  ("session_id") `);
        await queryRunner.query(`ALTER TABLE "rotated_refresh_tokens" ADD CONSTRAINT "FK_c24b9ff128df2974d75b990a00e" FOREIGN KEY ("session_id") REFERENCES "user_sessions"("session_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "rotated_refresh_tokens" DROP CONSTRAINT "FK_c24b9ff128df2974d75b990a00e"`);
        await queryRunner.query(`DROP INDEX "public"."ix_rotated_refresh_tokens_session_id"`);
        await queryRunner.query(`DROP TABLE "rotated_refresh_tokens"`);
    }

}
