import { randomBytes } from 'node:crypto';

import type { FastifyReply } from 'fastify';
import { securityHeaders } from '@portal/service-kit';

import type { PageFrame } from '../views/layout';

export type RenderPage = (frame: PageFrame) => string;

/** The part of a Koa context (oidc-provider's) a page is written to. */
export interface ProviderContext {
  set(headers: Record<string, string>): void;
  type: string;
  body: unknown;
}

export interface RenderedPage {
  html: string;
  headers: Record<string, string>;
}

export interface Pages {
  render(page: RenderPage): RenderedPage;
  /** Sends a page from a Fastify route; `headers` (Retry-After, Set-Cookie …) are added. */
  send(reply: FastifyReply, status: number, page: RenderPage, headers?: Record<string, string | string[]>): FastifyReply;
  /** Answers with a page from inside oidc-provider (its render hooks and middleware). */
  sendFromProvider(ctx: ProviderContext, page: RenderPage): void;
}

/**
 * Every page the provider shows: the product's name, a fresh nonce, and a policy that lets only
 * that nonce's style and script run. The front-end origins may frame the pages (the portal's
 * silent single-sign-on check) and receive their forms' redirects (form-action covers redirects).
 */
export function createPages({ productName, frontendOrigins }: { productName: string; frontendOrigins: string[] }): Pages {
  const render = (page: RenderPage): RenderedPage => {
    const nonce = randomBytes(16).toString('base64');
    const policy = securityHeaders({
      csp: {
        defaultSrc: ["'none'"],
        styleSrc: [`'nonce-${nonce}'`],
        scriptSrc: [`'nonce-${nonce}'`],
        formAction: ["'self'", ...frontendOrigins],
        frameAncestors: ["'self'", ...frontendOrigins],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
      },
      referrerPolicy: 'no-referrer',
    });
    return {
      html: page({ nonce, productName }),
      headers: { ...Object.fromEntries(policy.headers), 'Cache-Control': 'no-store' },
    };
  };
  return {
    render,
    send(reply, status, page, headers = {}) {
      const rendered = render(page);
      return reply
        .code(status)
        .headers({ ...rendered.headers, ...headers })
        .type('text/html; charset=utf-8')
        .send(rendered.html);
    },
    sendFromProvider(ctx, page) {
      const rendered = render(page);
      ctx.set(rendered.headers);
      ctx.type = 'html';
      ctx.body = rendered.html;
    },
  };
}
