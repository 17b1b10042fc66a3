// Probe controllers mounted into the real app by some identity suites (createTestApp({ extraModules })),
// to exercise the cross-cutting machinery (scopes, idempotency, admin guard) on routes whose
// behaviour the test controls. Test code only: never part of the built application.
import { Body, Get, Module, Post, Res } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { AdminController, AdminSession, AdminSessionInfo, ApiPrincipal, Principal, RequireScope, V1Controller } from '@almanac/identity';
import { ApiDataResponse, ApiProblems, newId } from '@almanac/shared';
import { IsString, MaxLength } from 'class-validator';
import type { Response } from 'express';
import { DataSource } from 'typeorm';

export const PROBE_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS probe_widgets (
    id uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name text NOT NULL
  )`;

/** Lets a test hold a request inside its handler: `arrived` resolves when it gets there, `release()` lets it go on. */
export class Gate {
  private releaseFn!: () => void;
  private arrivedFn!: () => void;
  readonly released = new Promise<void>((resolve) => (this.releaseFn = resolve));
  readonly arrived = new Promise<void>((resolve) => (this.arrivedFn = resolve));
  release(): void {
    this.releaseFn();
  }
  notifyArrived(): void {
    this.arrivedFn();
  }
}

export const gates: { slow?: Gate } = {};
export const calls = { widgets: 0 };

class CreateWidgetDto {
  @ApiProperty()
  @IsString()
  @MaxLength(100)
  readonly name!: string;
}

class WidgetResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty() readonly name!: string;
}

class OkResponse {
  @ApiProperty() readonly ok!: boolean;
}

class WhoAmIResponse {
  @ApiProperty() readonly userId!: string;
  @ApiProperty() readonly organizationId!: string;
  @ApiProperty() readonly role!: string;
  @ApiProperty() readonly email!: string;
  @ApiProperty() readonly name!: string;
}

@V1Controller('probe', 'probe')
class ProbeV1Controller {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get('scoped')
  @RequireScope('bookings:read')
  @ApiDataResponse(OkResponse)
  @ApiProblems(403)
  scoped(): { data: OkResponse } {
    return { data: { ok: true } };
  }

  @Post('widgets')
  @ApiDataResponse(WidgetResponse, 201)
  @ApiProblems(400, 403)
  async create(@Principal() principal: ApiPrincipal, @Body() body: CreateWidgetDto, @Res({ passthrough: true }) res: Response): Promise<{ data: WidgetResponse }> {
    calls.widgets += 1;
    if (body.name === 'slow' && gates.slow) {
      gates.slow.notifyArrived();
      await gates.slow.released;
    }
    const id = newId();
    await this.dataSource.query('INSERT INTO probe_widgets (id, organization_id, name) VALUES ($1, $2, $3)', [id, principal.organizationId, body.name]);
    res.location(`/api/v1/probe/widgets/${id}`);
    return { data: { id, name: body.name } };
  }
}

@AdminController('probe-admin', 'probe')
class ProbeAdminController {
  @Get('whoami')
  @ApiDataResponse(WhoAmIResponse)
  whoami(@AdminSession() session: AdminSessionInfo): { data: WhoAmIResponse } {
    return { data: { ...session } };
  }

  @Post('echo')
  @ApiDataResponse(OkResponse, 201)
  @ApiProblems(400, 415)
  echo(): { data: OkResponse } {
    return { data: { ok: true } };
  }
}

@Module({ controllers: [ProbeV1Controller, ProbeAdminController] })
export class ProbeModule {}
