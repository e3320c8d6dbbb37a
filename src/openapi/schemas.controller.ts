import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
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
  schema(@Param('file') file: string, @Res({ passthrough: true }) response: Response) {
    const name = /^([A-Za-z0-9_]+)\.json$/.exec(file)?.[1];
    const schema = name ? this.registry.get(name) : undefined;
    if (!schema) throw notFound(`No schema named ${file} exists.`);
    // The app computes no ETags (http-app.ts); Express answers a matching If-None-Match with 304 from this one.
    response.setHeader('ETag', this.registry.etag(name!)!);
    return schema;
  }
}
