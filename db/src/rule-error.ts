/** A rule an operator command or API input broke: the CLI exits 2 for bad input, 1 otherwise; the bff maps it to 404 / 409 / 400. */
export class RuleError extends Error {
  constructor(
    readonly kind: 'not_found' | 'conflict' | 'bad_input',
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
