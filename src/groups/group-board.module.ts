import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupEntity } from './entities/group.entity';
import { GroupBoard } from './group-board.service';

/** The group rows and the `most_members` board: read by the groups area, written by the refresh pipeline's group refresh. */
@Module({
  imports: [TypeOrmModule.forFeature([GroupEntity])],
  providers: [GroupBoard],
  exports: [GroupBoard, TypeOrmModule],
})
export class GroupBoardModule {}
