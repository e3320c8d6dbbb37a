import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/** The part of an express 5 router layer read here. */
interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * The methods the API routes a path under, read from the express router Nest registered the controllers on,
 * so nothing here has to be kept in step with the controllers. `GET /v1/stats.getStats` names an operation
 * that exists under another method: the problem filter answers it with 405 and this list as `Allow`
 * (RFC 9110 §15.5.6) instead of 404.
 */
@Injectable()
export class RouteMethods {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** Upper-case methods for the path; empty when no route matches it or one accepts every method. */
  allowed(path: string): string[] {
    const app = this.adapterHost.httpAdapter?.getInstance<{ router?: { stack: RouteLayer[] } }>();
    const methods = new Set<string>();
    for (const layer of app?.router?.stack ?? []) {
      if (!layer.route || !layer.match(path)) continue;
      if (layer.route.methods._all) return [];
      for (const [name, on] of Object.entries(layer.route.methods)) if (on) methods.add(name.toUpperCase());
    }
    // express answers HEAD with the GET handler.
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}
