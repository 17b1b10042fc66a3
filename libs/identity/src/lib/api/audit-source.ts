import { createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import { AppConfig, type AuditActor, type AuditSource, type TrustedProxies } from '@almanac/shared';
import type { RequestWithSession } from './admin-session.guard';
import type { RequestWithPrincipal } from './api-key.guard';

type AuditedRequest = RequestWithSession & RequestWithPrincipal;

/**
 * Who is acting on this request, as the audit log names them (the signed-in admin or the API key),
 * and from where: the client as every per-client limit and the sign-in throttle count it
 * (`TrustedProxies.clientOf`: behind a proxy in TRUSTED_PROXIES the address it names, an IPv6
 * client by its /64), so one action's entry and a sign-in's name the same client alike.
 */
export function auditSourceOf(req: AuditedRequest, trustedProxies: TrustedProxies): AuditSource {
  let actor: AuditActor | null = null;
  if (req.adminSession) actor = { type: 'user', id: req.adminSession.userId, name: req.adminSession.name };
  else if (req.principal) actor = { type: 'api_key', id: req.principal.apiKeyId, name: req.principal.apiKeyName };
  return { actor, ip: trustedProxies.clientOf(req) || null, requestId: (req as { id?: string }).id ?? null };
}

/** Turns the request into its AuditSource with the configured proxies (a pipe, so that it is injected). */
@Injectable()
export class AuditSourcePipe implements PipeTransform<AuditedRequest, AuditSource> {
  constructor(private readonly config: AppConfig) {}

  transform(req: AuditedRequest): AuditSource {
    return auditSourceOf(req, this.config.trustedProxies);
  }
}

const AuditedRequestParam = createParamDecorator((_data: unknown, context: ExecutionContext): AuditedRequest =>
  context.switchToHttp().getRequest<AuditedRequest>(),
);

/**
 * The request's `AuditSource` (actor, client address, request id), for a handler whose action the
 * audit log records: the handler passes it to its service, which records the entry in the action's
 * own transaction. Use after the guard that authenticates (`@AdminController` or `@V1Controller`).
 */
export const Audited = (): ParameterDecorator => AuditedRequestParam(undefined, AuditSourcePipe);
