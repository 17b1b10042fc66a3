import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { HttpProblem } from '../api/problem-details.filter';
import { ApiProblems } from '../api/swagger';
import { DATABASE_RETRY_AFTER_SECONDS } from '../database/db-availability';

class HealthStatus {
  @ApiProperty({ example: 'ok' })
  readonly status!: string;
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get('live')
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: the process is up' })
  @ApiOkResponse({ type: HealthStatus, description: 'The process is running' })
  live(): HealthStatus {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({ type: HealthStatus, description: 'The database is reachable' })
  @ApiProblems(503)
  async ready(): Promise<HealthStatus> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new HttpProblem({
        status: 503,
        code: 'database_unavailable',
        detail: 'The database is not reachable.',
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      });
    }
    return { status: 'ok' };
  }
}
