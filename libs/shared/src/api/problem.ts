import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ProblemFieldError {
  @ApiProperty({ example: 'attendee.email', description: 'Path of the failing field in the request' })
  readonly field!: string;

  @ApiProperty({ example: 'must be an e-mail address' })
  readonly message!: string;
}

/** RFC 9457 problem details, the body of every error response. */
export class Problem {
  @ApiProperty({ example: 'https://almanac.dev/problems/validation_failed' })
  readonly type!: string;

  @ApiProperty({ example: 'Bad Request' })
  readonly title!: string;

  @ApiProperty({ type: 'integer', example: 400 })
  readonly status!: number;

  @ApiProperty({ example: 'The request is invalid.' })
  readonly detail!: string;

  @ApiProperty({ example: 'validation_failed', description: 'Stable machine-readable error code' })
  readonly code!: string;

  @ApiProperty({ example: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a' })
  readonly request_id!: string;

  @ApiPropertyOptional({ type: [ProblemFieldError] })
  readonly errors?: ProblemFieldError[];
}

export { PROBLEM_TYPE_BASE } from './error-status';
