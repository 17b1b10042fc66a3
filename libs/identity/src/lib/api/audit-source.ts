import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuditActor, AuditSource } from '@almanac/shared';
import type { RequestWithSession } from './admin-session.guard';
import type { RequestWithPrincipal } from './api-key.guard';

/** Who is acting on this request, as the audit log names them: the signed-in admin or the API key. */
export function auditSourceOf(req: RequestWithSession & RequestWithPrincipal): AuditSource {
  let actor: AuditActor | null = null;
  if (req.adminSession) actor = { type: 'user', id: req.adminSession.userId, name: req.adminSession.name };
  else if (req.principal) actor = { type: 'api_key', id: req.principal.apiKeyId, name: req.principal.apiKeyName };
  return { actor, ip: req.socket?.remoteAddress ?? null, requestId: (req as { id?: string }).id ?? null };
}

/**
 * The request's `AuditSource` (actor, client address, request id), for a handler whose action the
 * audit log records: the handler passes it to its service, which records the entry in the action's
 * own transaction. Use after the guard that authenticates (`@AdminController` or `@V1Controller`).
 */
export const Audited = createParamDecorator((_data: unknown, context: ExecutionContext): AuditSource =>
  auditSourceOf(context.switchToHttp().getRequest<RequestWithSession & RequestWithPrincipal>()),
);
