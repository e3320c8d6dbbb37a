import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/auth/auth.decorator';
import { notFound } from '../common/problem/problem.exception';
import { JsonSchemaRegistry } from './json-schema.registry';

/** `GET /schemas/<Name>.json`: the documents that `$schema` links point to. */
@ApiExcludeController()
@Controller('schemas')
export class SchemasController {
  constructor(private readonly registry: JsonSchemaRegistry) {}

  @Public()
  @Get(':file')
  @Header('Content-Type', 'application/schema+json')
  @Header('Cache-Control', 'public, max-age=300')
  schema(@Param('file') file: string) {
    const name = /^([A-Za-z0-9_]+)\.json$/.exec(file)?.[1];
    const schema = name ? this.registry.get(name) : undefined;
    if (!schema) throw notFound(`No schema named ${file} exists.`);
    return schema;
  }
}
