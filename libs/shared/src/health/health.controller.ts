import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { HttpProblem } from '../api/problem-details.filter';
import { ApiProblems } from '../api/swagger';
import { AppConfig } from '../config/app-config';
import { DATABASE_RETRY_AFTER_SECONDS } from '../database/db-availability';

class HealthStatus {
  @ApiProperty({ example: 'ok' })
  readonly status!: string;
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  @Get('live')
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: the process is up' })
  @ApiOkResponse({ type: HealthStatus, description: 'The process is running' })
  live(): HealthStatus {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database answers (within DATABASE_READY_TIMEOUT_MS, 1.5 s by default)' })
  @ApiOkResponse({ type: HealthStatus, description: 'The database is reachable' })
  @ApiProblems(503)
  async ready(): Promise<HealthStatus> {
    // A database that stopped answering (frozen, not closed) must not hold the probe: not answered in
    // time is not ready. The statement itself ends on its own deadline.
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      this.dataSource.query('SELECT 1').then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.config.databaseReadyTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (!answered) {
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
