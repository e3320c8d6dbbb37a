import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../common/auth/auth.decorator';
import { notFound } from '../common/problem/problem.exception';
import { AccountImagesService } from './account-images.service';

/** A year: names are content addresses, so a name never changes meaning and caches may keep it forever. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * `GET /images/<fileName>`: the stored images, public like the profiles that list them. A plain HTTP resource
 * beside the JSON operations (as `/schemas` is), so it is left out of the OpenAPI document.
 */
@ApiExcludeController()
@Controller('images')
export class ImageFilesController {
  constructor(private readonly images: AccountImagesService) {}

  @Public()
  @Get(':file')
  async file(@Param('file') name: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const file = await this.images.openFile(name);
    if (!file) throw notFound(`No image named ${name} is stored.`);
    response.setHeader('Cache-Control', IMMUTABLE);
    response.setHeader('ETag', file.etag);
    if (matches(request.header('if-none-match'), file.etag)) {
      file.body.destroy();
      response.status(304).end();
      return;
    }
    response.setHeader('Content-Type', file.contentType);
    response.setHeader('Content-Length', String(file.size));
    // Never sniffed into something a browser would run; an image is all it may ever be.
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Content-Security-Policy', "default-src 'none'");
    response.status(200);
    file.body.on('error', () => response.destroy());
    file.body.pipe(response);
  }
}

/** If-None-Match: `*` or a list of (weak or strong) tags; weak comparison, as RFC 9110 asks for it. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
