import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Queue } from 'bullmq';
import { DASHBOARD_COOKIE, DASHBOARD_COOKIE_TTL_SECONDS, DASHBOARD_PATH, DashboardAccess } from './dashboard-access.service';

/** The dashboard cookie's value in a Cookie header, if any. */
function cookieOf(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === DASHBOARD_COOKIE) return value.join('=');
  }
  return undefined;
}

/** A refusal as the API words them (problem details), for a person's browser as much as for a script. */
function refuse(res: Response, status: number, detail: string): void {
  res
    .status(status)
    .type('application/problem+json')
    .setHeader('Cache-Control', 'no-store')
    .send(JSON.stringify({ type: 'about:blank', title: status === 401 ? 'Unauthorized' : 'Forbidden', status, detail }));
}

/**
 * # The queue dashboard
 *
 * Bull Board (its Express adapter) over every queue of the service, under DASHBOARD_PATH, mounted on Express ahead
 * of Nest's routes: Nest's credential guard knows bearer tokens only, so this gate is the dashboard's whole access
 * control (deny by default). `?ticket=` (operator.createDashboardTicket) is exchanged for the dashboard cookie and the
 * browser is sent to the bare path, so the ticket leaves the address bar; every other request needs the cookie
 * (DashboardAccess). The CSP of these pages is Swagger UI's (common/http/browser-access.ts): own scripts, inline
 * styles, same-origin fetches. Staff may retry, promote and clean jobs there: the cookie is SameSite=Strict, so no
 * other site can make a browser send those requests.
 */
export function queueDashboard(access: DashboardAccess, queues: Queue[]): RequestHandler[] {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'badge-stats queues' } },
  });
  const gate = (req: Request, res: Response, next: NextFunction): void => {
    void (async () => {
      const ticket = typeof req.query.ticket === 'string' ? req.query.ticket : undefined;
      if (ticket !== undefined) {
        const cookie = await access.redeem(ticket);
        if (!cookie) return refuse(res, 401, 'This dashboard link is unknown, expired or already used: create another one.');
        res.cookie(DASHBOARD_COOKIE, cookie, {
          httpOnly: true,
          sameSite: 'strict',
          secure: access.secureCookie,
          path: DASHBOARD_PATH,
          maxAge: DASHBOARD_COOKIE_TTL_SECONDS * 1000,
        });
        res.setHeader('Cache-Control', 'no-store');
        return res.redirect(303, DASHBOARD_PATH);
      }
      if (!(await access.admits(cookieOf(req.headers.cookie))))
        return refuse(res, 401, 'The queue dashboard is for staff: open it through a link from operator.createDashboardTicket.');
      next();
    })().catch(next);
  };
  return [gate, serverAdapter.getRouter() as RequestHandler];
}
