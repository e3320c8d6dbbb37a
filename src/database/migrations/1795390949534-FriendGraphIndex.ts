import { MigrationInterface, QueryRunner } from "typeorm";

export class FriendGraphIndex1795390949534 implements MigrationInterface {
    name = 'FriendGraphIndex1795390949534'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "ix_account_friends_friend" ON "account_friends"  ("friend_account_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_account_friends_friend"`);
    }

}
