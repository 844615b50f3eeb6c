import { AppError, type ErrorCode } from '@media-site/contracts/errors';

const CODE = { not_found: 'not_found', conflict: 'conflict', bad_input: 'bad_request' } as const satisfies Record<string, ErrorCode>;

/**
 * A rule an operator command or API input broke: the CLI exits 2 for bad input, 1 otherwise; as an
 * AppError it answers 404 / 409 / 400 wherever it reaches a service's error middleware.
 */
export class RuleError extends AppError {
  constructor(
    readonly kind: keyof typeof CODE,
    message: string,
  ) {
    super(CODE[kind], message);
  }
}
